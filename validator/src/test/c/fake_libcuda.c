/*
 * A stand-in for libcuda.so.1 that keeps "device" memory in host memory, so that the CUDA page
 * store's FFM bindings, its bookkeeping and its error paths run on machines without a GPU
 * (scripts/fake-cuda). It is no evidence about real CUDA behaviour: it checks what the real driver
 * would refuse (a missing current context, copies outside an allocation, unknown handles, the
 * batch-copy attributes) and fails loudly instead of corrupting memory, and it copies
 * synchronously. Only the entry points CudaDriver binds exist here, with the signatures of cuda.h
 * (CUDA 13): CUresult, CUdevice and flags are int; pointers, CUdeviceptr and size_t are 64 bits.
 *
 * Build: gcc -shared -fPIC -O2 -o libcuda.so.1 fake_libcuda.c -lpthread
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef uint64_t CUdeviceptr;

enum {
    SUCCESS = 0,
    INVALID_VALUE = 1,
    OUT_OF_MEMORY = 2,
    NOT_INITIALIZED = 3,
    INVALID_DEVICE = 101,
    INVALID_CONTEXT = 201,
    INVALID_HANDLE = 400,
};

#define MAX_ALLOCATIONS 4096
#define FAKE_CONTEXT ((void *) 0xC0C0)
#define DEVICE_BYTES (8ULL << 30) /* a "device" of 8 GiB: larger requests are out of memory */

struct allocation {
    uint64_t start;
    uint64_t bytes;
    int pinned;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct allocation allocations[MAX_ALLOCATIONS];
static int initialized;
static int primary_refs;
static uint64_t device_bytes_in_use;
static __thread void *current;
/*
 * FAKE_CUDA_SKIP_COPIES=1: move no device-to-device bytes and do not walk the kernel's copy list
 * (checked otherwise), to time the Java side alone. For measurements only: tests never set it.
 */
static int skip_copies;

__attribute__((constructor)) static void read_environment(void) {
    const char *skip = getenv("FAKE_CUDA_SKIP_COPIES");
    skip_copies = skip != NULL && strcmp(skip, "1") == 0;
}

/* Every code this stand-in returns, with the driver's name and text for it. */
static const struct {
    CUresult code;
    const char *name;
    const char *text;
} errors[] = {
    {SUCCESS, "CUDA_SUCCESS", "no error"},
    {INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
};

/* The entry for a code, or -1 for one the stand-in never returns. */
static int error_entry(CUresult code) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        if (errors[i].code == code) {
            return (int) i;
        }
    }
    return -1;
}

static CUresult fail(CUresult code, const char *why) {
    fprintf(stderr, "fake libcuda: %s\n", why);
    return code;
}

static int find(uint64_t address, uint64_t bytes, int pinned) {
    for (int i = 0; i < MAX_ALLOCATIONS; i++) {
        struct allocation *a = &allocations[i];
        if (a->bytes != 0 && a->pinned == pinned && address >= a->start && bytes <= a->bytes
                && address - a->start <= a->bytes - bytes) {
            return i;
        }
    }
    return -1;
}

static CUresult track(uint64_t start, uint64_t bytes, int pinned) {
    for (int i = 0; i < MAX_ALLOCATIONS; i++) {
        if (allocations[i].bytes == 0) {
            allocations[i] = (struct allocation) {start, bytes, pinned};
            return SUCCESS;
        }
    }
    return fail(OUT_OF_MEMORY, "too many allocations");
}

static CUresult ready(void) {
    if (!initialized) {
        return fail(NOT_INITIALIZED, "called before cuInit");
    }
    if (current != FAKE_CONTEXT || primary_refs == 0) {
        return fail(INVALID_CONTEXT, "no current context on this thread");
    }
    return SUCCESS;
}

CUresult cuInit(unsigned int flags) {
    if (flags != 0) {
        return fail(INVALID_VALUE, "cuInit flags must be 0");
    }
    initialized = 1;
    return SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
    if (!initialized) {
        return NOT_INITIALIZED;
    }
    *count = 1;
    return SUCCESS;
}

CUresult cuDeviceGet(int *device, int ordinal) {
    if (!initialized) {
        return NOT_INITIALIZED;
    }
    if (ordinal != 0) {
        return INVALID_DEVICE;
    }
    *device = 0;
    return SUCCESS;
}

CUresult cuDeviceGetName(char *name, int length, int device) {
    if (device != 0 || length <= 0) {
        return device != 0 ? INVALID_DEVICE : INVALID_VALUE;
    }
    snprintf(name, (size_t) length, "%s", "fake CUDA device (host memory)");
    return SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
    if (!initialized) {
        return NOT_INITIALIZED;
    }
    if (device != 0) {
        return INVALID_DEVICE;
    }
    pthread_mutex_lock(&lock);
    primary_refs++;
    pthread_mutex_unlock(&lock);
    *context = FAKE_CONTEXT;
    return SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(int device) {
    if (device != 0) {
        return INVALID_DEVICE;
    }
    pthread_mutex_lock(&lock);
    CUresult result = primary_refs > 0 ? SUCCESS : fail(INVALID_CONTEXT, "primary context released more often than retained");
    if (primary_refs > 0) {
        primary_refs--;
    }
    pthread_mutex_unlock(&lock);
    return result;
}

CUresult cuCtxSetCurrent(void *context) {
    if (context != NULL && context != FAKE_CONTEXT) {
        return fail(INVALID_CONTEXT, "cuCtxSetCurrent with an unknown context");
    }
    current = context;
    return SUCCESS;
}

static CUresult allocate(uint64_t *pointer, size_t bytes, int pinned) {
    CUresult result = ready();
    if (result != SUCCESS) {
        return result;
    }
    if (bytes == 0) {
        return fail(INVALID_VALUE, "zero-byte allocation");
    }
    pthread_mutex_lock(&lock);
    if (!pinned && bytes > DEVICE_BYTES - device_bytes_in_use) {
        pthread_mutex_unlock(&lock);
        return OUT_OF_MEMORY;
    }
    void *memory = aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (memory == NULL) {
        pthread_mutex_unlock(&lock);
        return OUT_OF_MEMORY;
    }
    /* Fresh device memory is not zeroed on a real GPU either: make stale reads visible. */
    memset(memory, 0xA5, bytes);
    result = track((uint64_t) (uintptr_t) memory, bytes, pinned);
    if (result == SUCCESS && !pinned) {
        device_bytes_in_use += bytes;
    }
    pthread_mutex_unlock(&lock);
    if (result != SUCCESS) {
        free(memory);
        return result;
    }
    *pointer = (uint64_t) (uintptr_t) memory;
    return SUCCESS;
}

static CUresult release(uint64_t pointer, int pinned) {
    CUresult result = ready();
    if (result != SUCCESS) {
        return result;
    }
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_ALLOCATIONS; i++) {
        if (allocations[i].bytes != 0 && allocations[i].start == pointer && allocations[i].pinned == pinned) {
            if (!pinned) {
                device_bytes_in_use -= allocations[i].bytes;
            }
            allocations[i].bytes = 0;
            pthread_mutex_unlock(&lock);
            free((void *) (uintptr_t) pointer);
            return SUCCESS;
        }
    }
    pthread_mutex_unlock(&lock);
    return fail(INVALID_VALUE, pinned ? "cuMemFreeHost of an unknown pointer" : "cuMemFree of an unknown pointer");
}

CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
    return allocate(pointer, bytes, 0);
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
    return release(pointer, 0);
}

CUresult cuMemHostAlloc(void **pointer, size_t bytes, unsigned int flags) {
    (void) flags;
    uint64_t address = 0;
    CUresult result = allocate(&address, bytes, 1);
    *pointer = (void *) (uintptr_t) address;
    return result;
}

CUresult cuMemFreeHost(void *pointer) {
    return release((uint64_t) (uintptr_t) pointer, 1);
}

/* Streams are numbered handles; 0 (the legacy stream) is refused where the real batch API refuses it. */
static int streams[64];

CUresult cuStreamCreate(uint64_t *stream, unsigned int flags) {
    CUresult result = ready();
    if (result != SUCCESS) {
        return result;
    }
    if (flags > 1) {
        return fail(INVALID_VALUE, "unknown stream flags");
    }
    pthread_mutex_lock(&lock);
    for (int i = 1; i < 64; i++) {
        if (!streams[i]) {
            streams[i] = 1;
            pthread_mutex_unlock(&lock);
            *stream = (uint64_t) i;
            return SUCCESS;
        }
    }
    pthread_mutex_unlock(&lock);
    return fail(OUT_OF_MEMORY, "too many streams");
}

static CUresult known_stream(uint64_t stream) {
    CUresult result = ready();
    if (result != SUCCESS) {
        return result;
    }
    return stream > 0 && stream < 64 && streams[stream] ? SUCCESS : fail(INVALID_HANDLE, "unknown stream");
}

CUresult cuStreamSynchronize(uint64_t stream) {
    return known_stream(stream);
}

CUresult cuStreamDestroy_v2(uint64_t stream) {
    CUresult result = known_stream(stream);
    if (result == SUCCESS) {
        streams[stream] = 0;
    }
    return result;
}

/* kind: 0 device, 1 pinned host. A copy must lie wholly inside one live allocation of its kind. */
static CUresult copy(uint64_t destination, int destination_kind, uint64_t source, int source_kind, size_t bytes,
        uint64_t stream, const char *what) {
    CUresult result = known_stream(stream);
    if (result != SUCCESS) {
        return result;
    }
    if (bytes == 0) {
        return SUCCESS;
    }
    pthread_mutex_lock(&lock);
    int to = find(destination, bytes, destination_kind);
    int from = find(source, bytes, source_kind);
    pthread_mutex_unlock(&lock);
    if (to < 0 || from < 0) {
        char why[160];
        snprintf(why, sizeof why, "%s of %zu bytes outside any %s allocation", what, bytes,
                to < 0 ? (destination_kind ? "pinned destination" : "device destination")
                       : (source_kind ? "pinned source" : "device source"));
        return fail(INVALID_VALUE, why);
    }
    if (!(skip_copies && destination_kind == 0 && source_kind == 0)) {
        memmove((void *) (uintptr_t) destination, (const void *) (uintptr_t) source, bytes);
    }
    return SUCCESS;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr destination, const void *source, size_t bytes, uint64_t stream) {
    return copy(destination, 0, (uint64_t) (uintptr_t) source, 1, bytes, stream, "cuMemcpyHtoDAsync");
}

CUresult cuMemcpyDtoHAsync_v2(void *destination, CUdeviceptr source, size_t bytes, uint64_t stream) {
    return copy((uint64_t) (uintptr_t) destination, 1, source, 0, bytes, stream, "cuMemcpyDtoHAsync");
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr destination, CUdeviceptr source, size_t bytes, uint64_t stream) {
    return copy(destination, 0, source, 0, bytes, stream, "cuMemcpyDtoDAsync");
}

typedef struct {
    int srcAccessOrder;
    int srcLocType;
    int srcLocId;
    int dstLocType;
    int dstLocId;
    unsigned int flags;
} CUmemcpyAttributes;

CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *destinations, CUdeviceptr *sources, size_t *sizes, size_t count,
        CUmemcpyAttributes *attributes, size_t *attributeIndices, size_t attributeCount, uint64_t stream) {
    if (sizeof(CUmemcpyAttributes) != 24) {
        return fail(INVALID_VALUE, "CUmemcpyAttributes is not 24 bytes");
    }
    if (count == 0 || attributeCount == 0 || attributeCount > count || attributeIndices[0] != 0) {
        return fail(INVALID_VALUE, "cuMemcpyBatchAsync_v2: bad count or attribute indices");
    }
    for (size_t a = 0; a < attributeCount; a++) {
        if (attributes[a].srcAccessOrder < 1 || attributes[a].srcAccessOrder > 3) {
            return fail(INVALID_VALUE, "cuMemcpyBatchAsync_v2: invalid srcAccessOrder");
        }
    }
    for (size_t i = 0; i < count; i++) {
        CUresult result = copy(destinations[i], 0, sources[i], 0, sizes[i], stream, "cuMemcpyBatchAsync_v2");
        if (result != SUCCESS) {
            return result;
        }
    }
    return SUCCESS;
}

/* The module is checked for the kernel's entry point; a launch runs what copy.ptx would, on the host. */
#define FAKE_MODULE ((void *) 0xD0D0)
#define FAKE_FUNCTION ((void *) 0xF0F0)

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned int count, int *options, void **values) {
    CUresult result = ready();
    if (result != SUCCESS) {
        return result;
    }
    if (strstr((const char *) image, ".entry proofgate_copy(") == NULL || strstr((const char *) image, ".version") == NULL) {
        return fail(INVALID_VALUE, "cuModuleLoadDataEx: not the copy kernel's PTX");
    }
    for (unsigned int i = 0; i < count; i++) {
        if (options[i] == 6 && (uintptr_t) values[i] == 0) {
            return fail(INVALID_VALUE, "cuModuleLoadDataEx: a zero-byte error log");
        }
    }
    *module = FAKE_MODULE;
    return SUCCESS;
}

CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
    if (module != FAKE_MODULE || strcmp(name, "proofgate_copy") != 0) {
        return fail(INVALID_HANDLE, "cuModuleGetFunction: unknown module or name");
    }
    *function = FAKE_FUNCTION;
    return SUCCESS;
}

CUresult cuLaunchKernel(void *function, unsigned int gridX, unsigned int gridY, unsigned int gridZ, unsigned int blockX,
        unsigned int blockY, unsigned int blockZ, unsigned int shared, uint64_t stream, void **params, void **extra) {
    CUresult result = known_stream(stream);
    if (result != SUCCESS) {
        return result;
    }
    if (function != FAKE_FUNCTION || params == NULL || extra != NULL) {
        return fail(INVALID_VALUE, "cuLaunchKernel: unknown function, no parameters, or extra given");
    }
    if (gridX == 0 || gridX > 2147483647u || gridY != 1 || gridZ != 1 || blockX == 0 || blockX > 1024 || blockY != 1
            || blockZ != 1 || shared != 0) {
        return fail(INVALID_VALUE, "cuLaunchKernel: bad launch shape");
    }
    uint64_t list = *(uint64_t *) params[0];
    uint64_t count = *(uint64_t *) params[1];
    pthread_mutex_lock(&lock);
    int found = count > 0 && count < (1ULL << 40) && find(list, count * 24, 0) >= 0;
    pthread_mutex_unlock(&lock);
    if (!found) {
        return fail(INVALID_VALUE, "cuLaunchKernel: the copy list is not in device memory");
    }
    const uint64_t *entries = (const uint64_t *) (uintptr_t) list;
    for (uint64_t i = 0; i < count && !skip_copies; i++) {
        result = copy(entries[3 * i], 0, entries[3 * i + 1], 0, entries[3 * i + 2], stream, "proofgate_copy");
        if (result != SUCCESS) {
            return result;
        }
    }
    return SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
    int entry = error_entry(error);
    *name = entry < 0 ? NULL : errors[entry].name;
    return entry < 0 ? INVALID_VALUE : SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
    int entry = error_entry(error);
    *text = entry < 0 ? NULL : errors[entry].text;
    return entry < 0 ? INVALID_VALUE : SUCCESS;
}
