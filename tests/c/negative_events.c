/* Events: released handles, wait lists mixing contexts, user-event calls
 * on command events, and the OpenCL-CTS hangs: a non-blocking write must
 * not wait in the call for an earlier read held back behind a user event
 * (test_events' userevents_multithreaded and callbacks_simultaneous
 * deadlocked there), and one from the memory that read fills must take
 * the read's data. The watchdog turns a hang into a failure. */
#include "check.h"

#include <pthread.h>

enum { WORDS = 256 };

static cl_event gate;

/* Sets the user event from another thread, after the main one has gone
 * on enqueueing (userevents_multithreaded). */
static void *open_gate(void *unused)
{
    (void)unused;
    usleep(100 * 1000);
    clSetUserEventStatus(gate, CL_COMPLETE);
    return NULL;
}

static cl_int status_of(cl_event event)
{
    cl_int status = 1234;
    clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    return status;
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    setup(&platform, &device, 60);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_mem source = clCreateBuffer(ctx, CL_MEM_READ_WRITE, WORDS * sizeof(cl_uint), NULL, &err);
    cl_mem target = clCreateBuffer(ctx, CL_MEM_READ_WRITE, WORDS * sizeof(cl_uint), NULL, &err);
    static cl_uint first[WORDS], second[WORDS], back[WORDS];
    for (int i = 0; i < WORDS; i++) {
        first[i] = 1000 + i;
        second[i] = 2000 + i;
    }
    clEnqueueWriteBuffer(queue, source, CL_TRUE, 0, sizeof first, first, 0, NULL, NULL);

    /* Released events. */
    cl_event gone = clCreateUserEvent(ctx, &err);
    expect("clReleaseEvent", clReleaseEvent(gone), CL_SUCCESS);
    cl_int status;
    expect("clGetEventInfo(released)",
           clGetEventInfo(gone, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
           CL_INVALID_EVENT);
    expect("clWaitForEvents(released)", clWaitForEvents(1, &gone), CL_INVALID_EVENT);
    expect("clSetUserEventStatus(released)", clSetUserEventStatus(gone, CL_COMPLETE), CL_INVALID_EVENT);
    expect("clRetainEvent(released)", clRetainEvent(gone), CL_INVALID_EVENT);
    expect("clReleaseEvent(released)", clReleaseEvent(gone), CL_INVALID_EVENT);
    expect("clEnqueueMarkerWithWaitList(released event)", clEnqueueMarkerWithWaitList(queue, 1, &gone, NULL),
           CL_INVALID_EVENT_WAIT_LIST);
    /* Commands enqueued without events take no handle, so they do not wear
     * out how long a released handle is recognised. */
    for (int i = 0; i < 20000; i++)
        clEnqueueMarkerWithWaitList(queue, 0, NULL, NULL);
    clFinish(queue);
    expect("clGetEventInfo(released, 20,000 commands later)",
           clGetEventInfo(gone, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
           CL_INVALID_EVENT);

    /* Mixed contexts; user-event calls on a command's event, also once it
     * is complete and its queue released. */
    cl_event mine = clCreateUserEvent(ctx, &err), theirs = clCreateUserEvent(other, &err);
    cl_event pair[2] = {mine, theirs};
    expect("clWaitForEvents(two contexts)", clWaitForEvents(2, pair), CL_INVALID_CONTEXT);
    clSetUserEventStatus(mine, CL_COMPLETE);
    clSetUserEventStatus(theirs, CL_COMPLETE);
    clReleaseEvent(mine);
    clReleaseEvent(theirs);
    cl_command_queue brief = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_event marker;
    clEnqueueMarkerWithWaitList(brief, 0, NULL, &marker);
    expect("clSetUserEventStatus(command event)", clSetUserEventStatus(marker, CL_COMPLETE), CL_INVALID_EVENT);
    clFinish(brief);
    clReleaseCommandQueue(brief);
    expect("clSetUserEventStatus(command event, queue gone)", clSetUserEventStatus(marker, CL_COMPLETE),
           CL_INVALID_EVENT);
    cl_command_queue of_marker = NULL;
    clGetEventInfo(marker, CL_EVENT_COMMAND_QUEUE, sizeof of_marker, &of_marker, NULL);
    expect_true("CL_EVENT_COMMAND_QUEUE still names its queue", of_marker == brief);
    expect("clGetEventInfo(complete, queue gone)", status_of(marker), CL_COMPLETE);
    clReleaseEvent(marker);

    /* A non-blocking write from memory no earlier command touches returns
     * at once, though a read before it waits for a user event. */
    gate = clCreateUserEvent(ctx, &err);
    cl_event read_done, write_done;
    expect("clEnqueueReadBuffer(non-blocking, behind a user event)",
           clEnqueueReadBuffer(queue, source, CL_FALSE, 0, sizeof back, back, 1, &gate, &read_done), CL_SUCCESS);
    expect("clEnqueueWriteBuffer(non-blocking, other memory)",
           clEnqueueWriteBuffer(queue, source, CL_FALSE, 0, sizeof second, second, 0, NULL, &write_done),
           CL_SUCCESS);
    expect_true("neither ran yet", status_of(read_done) > CL_COMPLETE && status_of(write_done) > CL_COMPLETE);
    pthread_t opener;
    pthread_create(&opener, NULL, open_gate, NULL);
    expect("clFinish", clFinish(queue), CL_SUCCESS);
    pthread_join(opener, NULL);
    expect_true("the read took the old contents", back[0] == 1000 && back[WORDS - 1] == 1000 + WORDS - 1);
    clEnqueueReadBuffer(queue, source, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL);
    expect_true("the write came after it", back[0] == 2000 && back[WORDS - 1] == 2000 + WORDS - 1);
    clReleaseEvent(read_done);
    clReleaseEvent(write_done);
    clReleaseEvent(gate);

    /* A non-blocking write from the memory such a read fills also returns
     * at once, and writes what the read brought. */
    memset(back, 0, sizeof back);
    clEnqueueWriteBuffer(queue, source, CL_TRUE, 0, sizeof first, first, 0, NULL, NULL);
    gate = clCreateUserEvent(ctx, &err);
    clEnqueueReadBuffer(queue, source, CL_FALSE, 0, sizeof back, back, 1, &gate, &read_done);
    expect("clEnqueueWriteBuffer(non-blocking, from the memory the read fills)",
           clEnqueueWriteBuffer(queue, target, CL_FALSE, 0, sizeof back, back, 0, NULL, &write_done), CL_SUCCESS);
    size_t second_slice[3] = {0, 0, 1}, region[3] = {16, 4, 1};
    expect("clEnqueueWriteBufferRect(non-blocking, from the memory the read fills)",
           clEnqueueWriteBufferRect(queue, target, CL_FALSE, second_slice, second_slice, region, 64, 256, 64, 256,
                                    back, 0, NULL, NULL),
           CL_SUCCESS);
    expect_true("the write waits with the read", status_of(write_done) > CL_COMPLETE);
    pthread_create(&opener, NULL, open_gate, NULL);
    expect("clWaitForEvents(the write)", clWaitForEvents(1, &write_done), CL_SUCCESS);
    pthread_join(opener, NULL);
    clFinish(queue);
    static cl_uint copied[WORDS];
    clEnqueueReadBuffer(queue, target, CL_TRUE, 0, sizeof copied, copied, 0, NULL, NULL);
    int same = 1;
    for (int i = 0; i < WORDS; i++)
        same &= copied[i] == first[i];
    expect_true("it wrote what the read brought", same);
    clReleaseEvent(read_done);
    clReleaseEvent(write_done);
    clReleaseEvent(gate);

    /* The same on an out-of-order queue, ordered by the wait list. */
    cl_queue_properties out_of_order[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue ooo = clCreateCommandQueueWithProperties(ctx, device, out_of_order, &err);
    memset(back, 0, sizeof back);
    clEnqueueFillBuffer(ooo, target, &(cl_uint){0}, sizeof(cl_uint), 0, sizeof copied, 0, NULL, &write_done);
    clWaitForEvents(1, &write_done);
    clReleaseEvent(write_done);
    gate = clCreateUserEvent(ctx, &err);
    clEnqueueReadBuffer(ooo, source, CL_FALSE, 0, sizeof back, back, 1, &gate, &read_done);
    expect("clEnqueueWriteBuffer(out of order, unrelated memory)",
           clEnqueueWriteBuffer(ooo, target, CL_FALSE, 0, 16, second, 0, NULL, NULL), CL_SUCCESS);
    expect("clEnqueueWriteBuffer(out of order, after the read into its memory)",
           clEnqueueWriteBuffer(ooo, target, CL_FALSE, 64, 64, back + 16, 1, &read_done, &write_done), CL_SUCCESS);
    pthread_create(&opener, NULL, open_gate, NULL);
    clWaitForEvents(1, &write_done);
    pthread_join(opener, NULL);
    clFinish(ooo);
    clEnqueueReadBuffer(queue, target, CL_TRUE, 0, sizeof copied, copied, 0, NULL, NULL);
    expect_true("both writes landed", copied[0] == 2000 && copied[3] == 2003 && copied[16] == 1016 &&
                                          copied[31] == 1031 && copied[32] == 0);
    clReleaseEvent(read_done);
    clReleaseEvent(write_done);
    clReleaseEvent(gate);
    clReleaseCommandQueue(ooo);

    /* A non-blocking read behind 64 launches held back by a user event:
     * when they complete one by one, the read runs, without the callbacks
     * that waited for them doubling at each completion (2^64 of them). */
    cl_program program = build(ctx, device, "__kernel void bump(__global uint *p) { p[get_global_id(0)] += 1; }");
    cl_kernel bump = clCreateKernel(program, "bump", &err);
    clSetKernelArg(bump, 0, sizeof target, &target);
    clEnqueueWriteBuffer(queue, target, CL_TRUE, 0, sizeof first, first, 0, NULL, NULL);
    gate = clCreateUserEvent(ctx, &err);
    size_t global = WORDS;
    for (int i = 0; i < 64; i++)
        clEnqueueNDRangeKernel(queue, bump, 1, NULL, &global, NULL, 1, &gate, NULL);
    expect("clEnqueueReadBuffer(behind 64 held-back launches)",
           clEnqueueReadBuffer(queue, target, CL_FALSE, 0, sizeof back, back, 0, NULL, &read_done), CL_SUCCESS);
    clSetUserEventStatus(gate, CL_COMPLETE);
    expect("clWaitForEvents(the read)", clWaitForEvents(1, &read_done), CL_SUCCESS);
    expect_true("after all 64", back[0] == 1064 && back[WORDS - 1] == 1064 + WORDS - 1);
    clReleaseEvent(read_done);
    clReleaseEvent(gate);
    clReleaseKernel(bump);
    clReleaseProgram(program);

    clReleaseMemObject(source);
    clReleaseMemObject(target);
    clReleaseCommandQueue(queue);
    clReleaseContext(other);
    clReleaseContext(ctx);
    return finish();
}
