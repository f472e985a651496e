/* Memory objects: sizes and regions that overflow, released handles (a
 * parent kept by its sub-buffer stays valid), destructor callbacks, and
 * pipes refused where no device supports them. */
#include "check.h"

static int destroyed;

static void CL_CALLBACK count_destruction(cl_mem mem, void *user_data)
{
    (void)mem;
    (void)user_data;
    destroyed++;
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    setup(&platform, &device, 120);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    static char host[256];

    clCreateBuffer(ctx, CL_MEM_READ_WRITE, SIZE_MAX, NULL, &err);
    expect("clCreateBuffer(SIZE_MAX)", err, CL_INVALID_BUFFER_SIZE);
    clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, SIZE_MAX, host, &err);
    expect("clCreateBuffer(SIZE_MAX, COPY_HOST_PTR)", err, CL_INVALID_BUFFER_SIZE);
    clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, (size_t)1 << 62, host, &err);
    expect("clCreateBuffer(2^62, USE_HOST_PTR)", err, CL_INVALID_BUFFER_SIZE);

    cl_mem parent = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    expect("clCreateBuffer", err, CL_SUCCESS);
    cl_buffer_region wraps = {SIZE_MAX - 4, 8};
    clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &wraps, &err);
    expect("clCreateSubBuffer(origin + size wraps)", err, CL_INVALID_VALUE);
    cl_buffer_region huge = {0, SIZE_MAX};
    clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &huge, &err);
    expect("clCreateSubBuffer(SIZE_MAX)", err, CL_INVALID_VALUE);

    /* A sub-buffer keeps its parent: released, the parent is still valid
     * until the sub-buffer goes too. */
    cl_buffer_region first = {0, 256};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &first, &err);
    expect("clCreateSubBuffer", err, CL_SUCCESS);
    clSetMemObjectDestructorCallback(parent, count_destruction, NULL);
    clSetMemObjectDestructorCallback(sub, count_destruction, NULL);
    expect("clReleaseMemObject(parent)", clReleaseMemObject(parent), CL_SUCCESS);
    expect_true("the parent lives on", destroyed == 0);
    cl_mem of_sub = NULL;
    clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof of_sub, &of_sub, NULL);
    size_t size = 0;
    expect("clGetMemObjectInfo(parent kept by its sub-buffer)",
           clGetMemObjectInfo(of_sub, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
    expect_true("its size", size == 4096);
    expect("clEnqueueWriteBuffer(sub-buffer)",
           clEnqueueWriteBuffer(queue, sub, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL), CL_SUCCESS);
    expect("clReleaseMemObject(sub-buffer)", clReleaseMemObject(sub), CL_SUCCESS);
    expect_true("both destructor callbacks ran", destroyed == 2);

    /* Released buffers are refused everywhere. */
    expect("clGetMemObjectInfo(released)", clGetMemObjectInfo(parent, CL_MEM_SIZE, sizeof size, &size, NULL),
           CL_INVALID_MEM_OBJECT);
    expect("clGetMemObjectInfo(released sub-buffer)",
           clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof size, &size, NULL), CL_INVALID_MEM_OBJECT);
    expect("clRetainMemObject(released)", clRetainMemObject(parent), CL_INVALID_MEM_OBJECT);
    expect("clReleaseMemObject(released)", clReleaseMemObject(parent), CL_INVALID_MEM_OBJECT);
    clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &first, &err);
    expect("clCreateSubBuffer(released)", err, CL_INVALID_MEM_OBJECT);
    expect("clSetMemObjectDestructorCallback(released)",
           clSetMemObjectDestructorCallback(parent, count_destruction, NULL), CL_INVALID_MEM_OBJECT);
    expect("clEnqueueReadBuffer(released)",
           clEnqueueReadBuffer(queue, parent, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    expect("clEnqueueWriteBuffer(released)",
           clEnqueueWriteBuffer(queue, sub, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    clEnqueueMapBuffer(queue, parent, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    expect("clEnqueueMapBuffer(released)", err, CL_INVALID_MEM_OBJECT);
    expect("clEnqueueMigrateMemObjects(released)", clEnqueueMigrateMemObjects(queue, 1, &parent, 0, 0, NULL, NULL),
           CL_INVALID_MEM_OBJECT);

    /* Info with a destination that claims SIZE_MAX bytes. */
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    struct {
        size_t value;
        size_t guard;
    } sized = {0, 77};
    expect("clGetMemObjectInfo(SIZE_MAX)", clGetMemObjectInfo(buf, CL_MEM_SIZE, SIZE_MAX, &sized, NULL),
           CL_SUCCESS);
    expect_true("only the value was written", sized.value == 64 && sized.guard == 77);
    expect("clSetMemObjectDestructorCallback(NULL)", clSetMemObjectDestructorCallback(buf, NULL, NULL),
           CL_INVALID_VALUE);

    /* No device supports pipes: none can be made, and no memory object is
     * one. */
    cl_mem pipe = clCreatePipe(ctx, CL_MEM_HOST_NO_ACCESS, 4, 4, NULL, &err);
    expect("clCreatePipe(no pipe support)", err, CL_INVALID_OPERATION);
    expect_true("clCreatePipe returned no object", pipe == NULL);
    cl_uint packet = 0;
    expect("clGetPipeInfo(a buffer)", clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof packet, &packet, NULL),
           CL_INVALID_MEM_OBJECT);

    clReleaseMemObject(buf);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return finish();
}
