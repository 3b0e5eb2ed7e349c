package io.proofgate.store;

/** The page-store contract on the default off-heap host store. */
class HostPageStoreTest extends PageStoreContract {

    @Override
    PageStore open(StoreLayout layout) {
        return new HostPageStore(layout);
    }
}
