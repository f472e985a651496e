/* Nothing leaks: the live objects of every kind (clGetLiveObjectCountsVK,
 * layer/include/clvulkan_ext.h) are back where they started after 10,000
 * cycles of every enqueue kind without event handles and 10,000 with them,
 * and after cycles of creating and releasing every kind of object; and
 * resident memory stays flat over 20,000 cycles of creating a context and
 * a queue and reading a buffer (it grew from 79 MB to 300 MB when every
 * enqueue without an event leaked that event, and with it its queue and
 * context). Prints the counts and the resident memory it measured. */
#include "check.h"

enum { CYCLES = 10000, CONTEXT_CYCLES = 20000, WARM_UP = 1000, WORDS = 64 };

static const char *NAMES[CLVK_LIVE_KINDS] = {"contexts", "queues", "memory objects",
                                             "programs", "kernels",  "events"};
static clGetLiveObjectCountsVK_fn live_counts;
static cl_platform_id platform;

static void counts(cl_ulong out[CLVK_LIVE_KINDS])
{
    cl_uint kinds = 0;
    if (live_counts(platform, CLVK_LIVE_KINDS, out, &kinds) != CL_SUCCESS || kinds != CLVK_LIVE_KINDS) {
        printf("clGetLiveObjectCountsVK failed\n");
        exit(1);
    }
}

/* Every count is what it was in `before`. */
static void expect_flat(const char *what, const cl_ulong before[CLVK_LIVE_KINDS])
{
    cl_ulong after[CLVK_LIVE_KINDS];
    counts(after);
    int flat = 1;
    printf("%s:", what);
    for (int kind = 0; kind < CLVK_LIVE_KINDS; kind++) {
        printf(" %s %llu -> %llu;", NAMES[kind], (unsigned long long)before[kind],
               (unsigned long long)after[kind]);
        flat &= after[kind] == before[kind];
    }
    printf("\n");
    expect_true(what, flat);
}

static long resident_kib(void)
{
    long size = 0, resident = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (statm == NULL || fscanf(statm, "%ld %ld", &size, &resident) != 2) {
        printf("/proc/self/statm unreadable\n");
        exit(1);
    }
    fclose(statm);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

struct objects {
    cl_command_queue queue;
    cl_mem a, b;
    cl_kernel kernel;
    cl_uint *host;
};

/* One command of every enqueue kind. With `events`, each asks for its
 * event, waits on the one before it and releases it; some are waited for
 * first. */
static void every_kind(const struct objects *o, int events)
{
    cl_event previous = NULL, next = NULL;
    cl_event *out = events ? &next : NULL;
    cl_uint waits = 0;
    const cl_event *list = NULL;
#define STEP(call)                                                                                              \
    do {                                                                                                        \
        cl_int status = (call);                                                                                 \
        if (status != CL_SUCCESS) {                                                                             \
            printf("%s: %d\n", #call, status);                                                                  \
            failures++;                                                                                         \
        }                                                                                                       \
        if (events) {                                                                                           \
            if (previous != NULL)                                                                               \
                clReleaseEvent(previous);                                                                       \
            previous = next;                                                                                    \
            waits = 1;                                                                                          \
            list = &previous;                                                                                   \
        }                                                                                                       \
    } while (0)
    size_t bytes = WORDS * sizeof(cl_uint), origin[3] = {0, 0, 0}, region[3] = {16, 4, 1};
    size_t global = WORDS, one = 1;
    cl_uint zero = 0;
    STEP(clEnqueueWriteBuffer(o->queue, o->a, CL_FALSE, 0, bytes, o->host, waits, list, out));
    STEP(clEnqueueReadBuffer(o->queue, o->a, CL_FALSE, 0, bytes, o->host + WORDS, waits, list, out));
    STEP(clEnqueueCopyBuffer(o->queue, o->a, o->b, 0, 0, bytes, waits, list, out));
    STEP(clEnqueueFillBuffer(o->queue, o->b, &zero, sizeof zero, 0, bytes, waits, list, out));
    STEP(clEnqueueWriteBufferRect(o->queue, o->a, CL_FALSE, origin, origin, region, 16, 0, 16, 0, o->host, waits,
                                  list, out));
    STEP(clEnqueueReadBufferRect(o->queue, o->a, CL_FALSE, origin, origin, region, 16, 0, 16, 0,
                                 o->host + 2 * WORDS, waits, list, out));
    STEP(clEnqueueCopyBufferRect(o->queue, o->a, o->b, origin, origin, region, 16, 0, 16, 0, waits, list, out));
    cl_int err;
    void *mapped = clEnqueueMapBuffer(o->queue, o->b, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, waits, list,
                                      out, &err);
    STEP(err);
    STEP(clEnqueueUnmapMemObject(o->queue, o->b, mapped, waits, list, out));
    STEP(clEnqueueNDRangeKernel(o->queue, o->kernel, 1, NULL, &global, NULL, waits, list, out));
    STEP(clEnqueueNDRangeKernel(o->queue, o->kernel, 1, NULL, &one, &one, waits, list, out));
    STEP(clEnqueueTask(o->queue, o->kernel, waits, list, out));
    STEP(clEnqueueMarkerWithWaitList(o->queue, waits, list, out));
    STEP(clEnqueueBarrierWithWaitList(o->queue, waits, list, out));
    STEP(clEnqueueMigrateMemObjects(o->queue, 1, &o->a, 0, waits, list, out));
    if (events) {
        STEP(clEnqueueWaitForEvents(o->queue, 1, &previous));
        STEP(clEnqueueMarker(o->queue, &next));
        STEP(clWaitForEvents(1, &previous));
        clReleaseEvent(previous);
    } else {
        STEP(clEnqueueBarrier(o->queue));
    }
    STEP(clEnqueueReadBuffer(o->queue, o->b, CL_TRUE, 0, bytes, o->host + 3 * WORDS, 0, NULL, NULL));
#undef STEP
}

static void CL_CALLBACK ignore(cl_event event, cl_int status, void *user_data)
{
    (void)event;
    (void)status;
    (void)user_data;
}

int main(void)
{
    cl_device_id device;
    cl_int err;
    setup(&platform, &device, 900);
    live_counts = (clGetLiveObjectCountsVK_fn)clGetExtensionFunctionAddressForPlatform(platform,
                                                                                      "clGetLiveObjectCountsVK");
    expect_true("clGetLiveObjectCountsVK is there", live_counts != NULL);
    if (live_counts == NULL)
        return finish();
    cl_ulong none[CLVK_LIVE_KINDS];
    counts(none);
    cl_uint kinds = 0;
    expect("clGetLiveObjectCountsVK(sizes only)", live_counts(platform, 0, NULL, &kinds), CL_SUCCESS);
    expect_true("six kinds", kinds == CLVK_LIVE_KINDS);
    expect("clGetLiveObjectCountsVK(no output)", live_counts(platform, 0, NULL, NULL), CL_INVALID_VALUE);
    expect("clGetLiveObjectCountsVK(NULL platform)", live_counts(NULL, CLVK_LIVE_KINDS, none, NULL),
           CL_INVALID_PLATFORM);

    static cl_uint host[4 * WORDS];
    struct objects o;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    o.queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    o.a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, WORDS * sizeof(cl_uint), NULL, &err);
    o.b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, WORDS * sizeof(cl_uint), NULL, &err);
    o.host = host;
    cl_program program = build(ctx, device,
                               "__kernel void bump(__global uint *p) { p[get_global_id(0)] += 1; }\n"
                               "__kernel void other(__global uint *p, uint v) { p[0] = v; }\n");
    if (program == NULL)
        return finish();
    o.kernel = clCreateKernel(program, "bump", &err);
    clSetKernelArg(o.kernel, 0, sizeof o.b, &o.b);
    cl_ulong start[CLVK_LIVE_KINDS];
    counts(start);
    expect_true("one context, queue, program and kernel and two buffers live",
                start[CLVK_LIVE_CONTEXTS] == none[CLVK_LIVE_CONTEXTS] + 1 &&
                    start[CLVK_LIVE_QUEUES] == none[CLVK_LIVE_QUEUES] + 1 &&
                    start[CLVK_LIVE_MEM_OBJECTS] == none[CLVK_LIVE_MEM_OBJECTS] + 2 &&
                    start[CLVK_LIVE_PROGRAMS] == none[CLVK_LIVE_PROGRAMS] + 1 &&
                    start[CLVK_LIVE_KERNELS] == none[CLVK_LIVE_KERNELS] + 1);

    /* The counter sees a leak: an event kept is counted. */
    cl_event kept;
    clEnqueueMarkerWithWaitList(o.queue, 0, NULL, &kept);
    clFinish(o.queue);
    cl_ulong with_one[CLVK_LIVE_KINDS];
    counts(with_one);
    expect_true("a kept event is counted", with_one[CLVK_LIVE_EVENTS] == start[CLVK_LIVE_EVENTS] + 1);
    clReleaseEvent(kept);
    expect_flat("after releasing it", start);

    for (int i = 0; i < CYCLES; i++) {
        every_kind(&o, 0);
        if (i % 500 == 499)
            clFinish(o.queue);
    }
    clFinish(o.queue);
    expect_flat("every enqueue kind without events", start);
    for (int i = 0; i < CYCLES; i++)
        every_kind(&o, 1);
    clFinish(o.queue);
    expect_flat("every enqueue kind with events", start);

    /* Objects made and released. */
    for (int i = 0; i < CYCLES; i++) {
        cl_event user = clCreateUserEvent(ctx, &err);
        clSetEventCallback(user, CL_COMPLETE, ignore, NULL);
        if (i % 2 == 0)
            clSetUserEventStatus(user, CL_COMPLETE);
        clReleaseEvent(user);
        cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256, NULL, &err);
        cl_buffer_region region = {0, 128};
        cl_mem sub = clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
        clReleaseMemObject(buf);
        clReleaseMemObject(sub);
        cl_kernel kernel = clCreateKernel(program, "other", &err);
        cl_kernel clone = clCloneKernel(kernel, &err);
        clReleaseKernel(kernel);
        clReleaseKernel(clone);
    }
    for (int i = 0; i < 1000; i++) {
        cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
        clEnqueueNDRangeKernel(queue, o.kernel, 1, NULL, &(size_t){WORDS}, NULL, 0, NULL, NULL);
        clReleaseCommandQueue(queue);
    }
    for (int i = 0; i < 100; i++) {
        cl_program built = build(ctx, device, "__kernel void k(__global int *p) { p[0] = 1; }");
        cl_kernel kernel = clCreateKernel(built, "k", &err);
        clReleaseProgram(built);
        clReleaseKernel(kernel);
    }
    clFinish(o.queue);
    expect_flat("objects made and released", start);

    clReleaseKernel(o.kernel);
    clReleaseProgram(program);
    clReleaseMemObject(o.a);
    clReleaseMemObject(o.b);
    clReleaseCommandQueue(o.queue);
    clReleaseContext(ctx);
    expect_flat("everything released", none);

    /* A context, a queue, a buffer and a blocking read per cycle. */
    long before = 0;
    for (int i = 0; i < WARM_UP + CONTEXT_CYCLES; i++) {
        if (i == WARM_UP)
            before = resident_kib();
        cl_context c = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
        cl_command_queue q = clCreateCommandQueueWithProperties(c, device, NULL, &err);
        cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, WORDS * sizeof(cl_uint), NULL, &err);
        if (clEnqueueReadBuffer(q, m, CL_TRUE, 0, WORDS * sizeof(cl_uint), host, 0, NULL, NULL) != CL_SUCCESS)
            failures++;
        clReleaseMemObject(m);
        clReleaseCommandQueue(q);
        clReleaseContext(c);
    }
    long after = resident_kib();
    printf("resident memory over %d context cycles: %ld KiB -> %ld KiB\n", CONTEXT_CYCLES, before, after);
    expect_true("resident memory grew by less than 16 MiB", after - before < 16 * 1024);
    expect_flat("after the context cycles", none);
    return finish();
}
