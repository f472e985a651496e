/* Contexts and command queues: bad arguments, released handles (refused
 * once the object is gone, valid while another object still keeps it, as
 * the spec deletes them), and info queries with huge sizes. */
#include "check.h"

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    setup(&platform, &device, 120);

    clCreateContext(NULL, 0, NULL, NULL, NULL, &err);
    expect("clCreateContext(no devices)", err, CL_INVALID_VALUE);
    cl_device_id null_device = NULL;
    clCreateContext(NULL, 1, &null_device, NULL, NULL, &err);
    expect("clCreateContext(NULL device)", err, CL_INVALID_DEVICE);
    clCreateContext(NULL, 1, &device, NULL, &err, &err);
    expect("clCreateContext(user_data without callback)", err, CL_INVALID_VALUE);
    cl_context_properties unknown[] = {0x7777, 1, 0};
    clCreateContext(unknown, 1, &device, NULL, NULL, &err);
    expect("clCreateContext(unknown property)", err, CL_INVALID_PROPERTY);

    /* A released context is refused by everything that takes one. */
    cl_context gone = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    expect("clCreateContext", err, CL_SUCCESS);
    expect("clReleaseContext", clReleaseContext(gone), CL_SUCCESS);
    clCreateBuffer(gone, CL_MEM_READ_WRITE, 16, NULL, &err);
    expect("clCreateBuffer(released context)", err, CL_INVALID_CONTEXT);
    clCreateCommandQueueWithProperties(gone, device, NULL, &err);
    expect("clCreateCommandQueueWithProperties(released context)", err, CL_INVALID_CONTEXT);
    const char *source = "__kernel void k(__global int *p) { p[0] = 1; }";
    clCreateProgramWithSource(gone, 1, &source, NULL, &err);
    expect("clCreateProgramWithSource(released context)", err, CL_INVALID_CONTEXT);
    clCreateUserEvent(gone, &err);
    expect("clCreateUserEvent(released context)", err, CL_INVALID_CONTEXT);
    cl_uint count = 0;
    expect("clGetContextInfo(released context)",
           clGetContextInfo(gone, CL_CONTEXT_REFERENCE_COUNT, sizeof count, &count, NULL),
           CL_INVALID_CONTEXT);
    expect("clRetainContext(released context)", clRetainContext(gone), CL_INVALID_CONTEXT);
    expect("clReleaseContext(released context)", clReleaseContext(gone), CL_INVALID_CONTEXT);

    /* A context its queue still keeps stays valid after its release, as the
     * spec deletes it only once its objects are gone too. */
    cl_context kept = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue keeper = clCreateCommandQueueWithProperties(kept, device, NULL, &err);
    expect("clCreateCommandQueueWithProperties", err, CL_SUCCESS);
    expect("clReleaseContext(kept by a queue)", clReleaseContext(kept), CL_SUCCESS);
    cl_context of_queue = NULL;
    clGetCommandQueueInfo(keeper, CL_QUEUE_CONTEXT, sizeof of_queue, &of_queue, NULL);
    expect_true("CL_QUEUE_CONTEXT is the released context", of_queue == kept);
    cl_mem still = clCreateBuffer(of_queue, CL_MEM_READ_WRITE, 16, NULL, &err);
    expect("clCreateBuffer(context kept by a queue)", err, CL_SUCCESS);
    clReleaseMemObject(still);
    expect("clReleaseCommandQueue", clReleaseCommandQueue(keeper), CL_SUCCESS);
    clCreateBuffer(kept, CL_MEM_READ_WRITE, 16, NULL, &err);
    expect("clCreateBuffer(context gone with its queue)", err, CL_INVALID_CONTEXT);

    /* Released queues, also one released with work in flight: the release
     * waits for that work, and then the queue is gone. */
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    static char host[4096];
    cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    expect("clReleaseCommandQueue(idle)", clReleaseCommandQueue(queue), CL_SUCCESS);
    expect("clFinish(released queue)", clFinish(queue), CL_INVALID_COMMAND_QUEUE);
    expect("clFlush(released queue)", clFlush(queue), CL_INVALID_COMMAND_QUEUE);
    expect("clEnqueueWriteBuffer(released queue)",
           clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    cl_command_queue_properties properties;
    expect("clGetCommandQueueInfo(released queue)",
           clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, NULL),
           CL_INVALID_COMMAND_QUEUE);
    expect("clRetainCommandQueue(released queue)", clRetainCommandQueue(queue), CL_INVALID_COMMAND_QUEUE);
    queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    for (int i = 0; i < 64; i++) {
        clEnqueueWriteBuffer(queue, buf, CL_FALSE, 0, sizeof host, host, 0, NULL, NULL);
        clEnqueueReadBuffer(queue, buf, CL_FALSE, 0, sizeof host, host, 0, NULL, NULL);
    }
    expect("clReleaseCommandQueue(busy)", clReleaseCommandQueue(queue), CL_SUCCESS);
    expect("clFinish(queue released busy)", clFinish(queue), CL_INVALID_COMMAND_QUEUE);
    expect("clEnqueueReadBuffer(queue released busy)",
           clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);

    /* Queue creation errors. */
    clCreateCommandQueue(ctx, NULL, 0, &err);
    expect("clCreateCommandQueue(NULL device)", err, CL_INVALID_DEVICE);
    clCreateCommandQueue(ctx, device, (cl_command_queue_properties)1 << 40, &err);
    expect("clCreateCommandQueue(unknown property)", err, CL_INVALID_VALUE);
    cl_queue_properties bogus[] = {0x7777, 1, 0};
    clCreateCommandQueueWithProperties(ctx, device, bogus, &err);
    expect("clCreateCommandQueueWithProperties(unknown name)", err, CL_INVALID_VALUE);

    /* Info with a destination that claims SIZE_MAX bytes: the spec's only
     * condition is that it is not too small; only the value is written. */
    struct {
        cl_uint value;
        cl_uint guard;
    } devices = {0, 0xabcdef01};
    expect("clGetContextInfo(SIZE_MAX)",
           clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, SIZE_MAX, &devices, NULL), CL_SUCCESS);
    expect_true("only the value was written", devices.value == 1 && devices.guard == 0xabcdef01);
    char name[4096];
    memset(name, 0x55, sizeof name);
    size_t name_size = 0;
    expect("clGetDeviceInfo(SIZE_MAX)", clGetDeviceInfo(device, CL_DEVICE_NAME, SIZE_MAX, name, &name_size),
           CL_SUCCESS);
    expect_true("the name and nothing after it",
                name_size > 1 && name_size < sizeof name && strlen(name) + 1 == name_size &&
                    (unsigned char)name[name_size] == 0x55);
    expect("clGetPlatformInfo(SIZE_MAX)", clGetPlatformInfo(platform, CL_PLATFORM_NAME, SIZE_MAX, name, NULL),
           CL_SUCCESS);
    expect("clGetContextInfo(too small)", clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, 2, &devices, NULL),
           CL_INVALID_VALUE);

    clReleaseMemObject(buf);
    clReleaseContext(ctx);
    return finish();
}
