package io.proofgate.namespace;

import io.proofgate.replay.Replay;
import io.proofgate.store.HostPageStore;
import io.proofgate.store.Snapshot;
import io.proofgate.store.StoreLayout;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What the spec audit calls in a revision's validator. Two revisions run in one JVM, each in a class loader of its own,
 * so each call is made by reflection: the replay entry point, and the page store's calls that answer a snapshot probe.
 * This is their one declaration, by class, name and parameter types, and what every revision since the pinned one
 * answers to. {@code RevisionCallTest} finds each in this validator, so a rename or a changed signature here fails the
 * build; {@code PinnedRevisionTest} drives a validator from the repository's history through them, so a rename that an
 * older revision cannot follow fails it too.
 */
public enum RevisionCall {
    REPLAY(Replay.class, "run", InputStream.class, String.class, OutputStream.class),
    UNIFORM_LAYOUT(StoreLayout.class, "uniform", int.class, int.class, long.class, long.class),
    SNAPSHOT_BYTES(StoreLayout.class, "snapshotBytes", long[][].class),
    NEW_STORE(HostPageStore.class, RevisionCall.CONSTRUCTOR, StoreLayout.class),
    WRITE(HostPageStore.class, "write", int.class, long.class, MemorySegment.class),
    NEW_SNAPSHOT(HostPageStore.class, "newSnapshot", long.class),
    GATHER(HostPageStore.class, "gather", long[][].class, Snapshot.class),
    SHA256(HostPageStore.class, "sha256", Snapshot.class);

    /** The name that stands for the class's constructor. */
    private static final String CONSTRUCTOR = "new";

    private final Class<?> owner;
    private final String name;
    private final List<Class<?>> parameters;

    RevisionCall(Class<?> owner, String name, Class<?>... parameters) {
        this.owner = owner;
        this.name = name;
        this.parameters = List.of(parameters);
    }

    /**
     * This call in the validator whose classes {@code types} finds by name: the owner, and a parameter of one of this
     * validator's own types, are that validator's classes of the same names.
     */
    public Executable in(ReferenceNamespace.Types types) throws ReflectiveOperationException {
        Class<?>[] parameterTypes = new Class<?>[parameters.size()];
        for (int i = 0; i < parameterTypes.length; i++) {
            Class<?> type = parameters.get(i);
            parameterTypes[i] = type.getName().startsWith("io.proofgate.") ? types.type(type.getName()) : type;
        }
        Class<?> in = types.type(owner.getName());
        return name.equals(CONSTRUCTOR) ? in.getConstructor(parameterTypes) : in.getMethod(name, parameterTypes);
    }

    /** Makes the call: a constructor's new object, or the method's result on {@code target} (null for a static one). */
    public Object call(ReferenceNamespace.Types types, Object target, Object... arguments)
            throws ReflectiveOperationException {
        Executable call = in(types);
        return call instanceof Method method
                ? method.invoke(target, arguments)
                : ((java.lang.reflect.Constructor<?>) call).newInstance(arguments);
    }

    /** The call as code writes it: {@code HostPageStore.gather(long[][], Snapshot)}. */
    @Override
    public String toString() {
        return owner.getSimpleName()
                + (name.equals(CONSTRUCTOR) ? "" : "." + name)
                + parameters.stream().map(Class::getSimpleName).collect(Collectors.joining(", ", "(", ")"));
    }
}
