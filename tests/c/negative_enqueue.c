/* Enqueue calls: every kind refuses objects and events of another context
 * (and a refused unmap leaves the mapping in place), sizes, offsets,
 * origins and pitches that overflow are CL_INVALID_VALUE, a global offset
 * that would wrap is CL_INVALID_GLOBAL_OFFSET, a NULL global size is an
 * empty launch that succeeds (OpenCL 2.1+), and rectangle copies within
 * one buffer find overlap at any pitches. */
#include "check.h"

static const char *SOURCE = "__kernel void ids(__global uint *p) { p[get_global_id(0) & 63] = 1 + get_global_id(0); }\n";

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    setup(&platform, &device, 120);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_command_queue other_queue = clCreateCommandQueueWithProperties(other, device, NULL, &err);
    cl_mem mine = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem theirs = clCreateBuffer(other, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_program program = build(ctx, device, SOURCE);
    cl_program other_program = build(other, device, SOURCE);
    cl_kernel kernel = clCreateKernel(program, "ids", &err);
    cl_kernel other_kernel = clCreateKernel(other_program, "ids", &err);
    clSetKernelArg(kernel, 0, sizeof mine, &mine);
    clSetKernelArg(other_kernel, 0, sizeof theirs, &theirs);
    cl_event their_event;
    clEnqueueMarkerWithWaitList(other_queue, 0, NULL, &their_event);
    static unsigned char host[4096];
    size_t origin[3] = {0, 0, 0}, region[3] = {16, 2, 1};
    size_t global = 64;
    cl_uint pattern = 5;

    /* Objects of another context, by every enqueue kind. */
    expect("clEnqueueReadBuffer(other context)",
           clEnqueueReadBuffer(queue, theirs, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueWriteBuffer(other context)",
           clEnqueueWriteBuffer(queue, theirs, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueCopyBuffer(other context, source)",
           clEnqueueCopyBuffer(queue, theirs, mine, 0, 0, 16, 0, NULL, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueCopyBuffer(other context, destination)",
           clEnqueueCopyBuffer(queue, mine, theirs, 0, 0, 16, 0, NULL, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueFillBuffer(other context)",
           clEnqueueFillBuffer(queue, theirs, &pattern, sizeof pattern, 0, 16, 0, NULL, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueReadBufferRect(other context)",
           clEnqueueReadBufferRect(queue, theirs, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, NULL,
                                   NULL),
           CL_INVALID_CONTEXT);
    expect("clEnqueueWriteBufferRect(other context)",
           clEnqueueWriteBufferRect(queue, theirs, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 0, NULL,
                                    NULL),
           CL_INVALID_CONTEXT);
    expect("clEnqueueCopyBufferRect(other context)",
           clEnqueueCopyBufferRect(queue, mine, theirs, origin, origin, region, 0, 0, 0, 0, 0, NULL, NULL),
           CL_INVALID_CONTEXT);
    void *mapped = clEnqueueMapBuffer(queue, theirs, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    expect("clEnqueueMapBuffer(other context)", mapped == NULL ? err : -1, CL_INVALID_CONTEXT);
    mapped = clEnqueueMapBuffer(other_queue, theirs, CL_TRUE, CL_MAP_WRITE, 0, 16, 0, NULL, NULL, &err);
    expect("clEnqueueMapBuffer(its own queue)", err, CL_SUCCESS);
    expect("clEnqueueUnmapMemObject(other context)",
           clEnqueueUnmapMemObject(queue, theirs, mapped, 0, NULL, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueUnmapMemObject(its own queue, the mapping still there)",
           clEnqueueUnmapMemObject(other_queue, theirs, mapped, 0, NULL, NULL), CL_SUCCESS);
    expect("clEnqueueNDRangeKernel(other context)",
           clEnqueueNDRangeKernel(queue, other_kernel, 1, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueTask(other context)", clEnqueueTask(queue, other_kernel, 0, NULL, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueMigrateMemObjects(other context)",
           clEnqueueMigrateMemObjects(queue, 1, &theirs, 0, 0, NULL, NULL), CL_INVALID_CONTEXT);

    /* Events of another context in a wait list, by every enqueue kind. */
    expect("clEnqueueReadBuffer(event of another context)",
           clEnqueueReadBuffer(queue, mine, CL_TRUE, 0, 16, host, 1, &their_event, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueWriteBuffer(event of another context)",
           clEnqueueWriteBuffer(queue, mine, CL_FALSE, 0, 16, host, 1, &their_event, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueCopyBuffer(event of another context)",
           clEnqueueCopyBuffer(queue, mine, mine, 0, 64, 16, 1, &their_event, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueFillBuffer(event of another context)",
           clEnqueueFillBuffer(queue, mine, &pattern, sizeof pattern, 0, 16, 1, &their_event, NULL),
           CL_INVALID_CONTEXT);
    expect("clEnqueueReadBufferRect(event of another context)",
           clEnqueueReadBufferRect(queue, mine, CL_TRUE, origin, origin, region, 0, 0, 0, 0, host, 1,
                                   &their_event, NULL),
           CL_INVALID_CONTEXT);
    clEnqueueMapBuffer(queue, mine, CL_TRUE, CL_MAP_READ, 0, 16, 1, &their_event, NULL, &err);
    expect("clEnqueueMapBuffer(event of another context)", err, CL_INVALID_CONTEXT);
    expect("clEnqueueNDRangeKernel(event of another context)",
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 1, &their_event, NULL),
           CL_INVALID_CONTEXT);
    expect("clEnqueueMarkerWithWaitList(event of another context)",
           clEnqueueMarkerWithWaitList(queue, 1, &their_event, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueBarrierWithWaitList(event of another context)",
           clEnqueueBarrierWithWaitList(queue, 1, &their_event, NULL), CL_INVALID_CONTEXT);
    expect("clEnqueueWaitForEvents(event of another context)", clEnqueueWaitForEvents(queue, 1, &their_event),
           CL_INVALID_CONTEXT);
    expect("clEnqueueMigrateMemObjects(event of another context)",
           clEnqueueMigrateMemObjects(queue, 1, &mine, 0, 1, &their_event, NULL), CL_INVALID_CONTEXT);

    /* Sizes and offsets that overflow. */
    expect("clEnqueueReadBuffer(size SIZE_MAX)",
           clEnqueueReadBuffer(queue, mine, CL_TRUE, 0, SIZE_MAX, host, 0, NULL, NULL), CL_INVALID_VALUE);
    expect("clEnqueueReadBuffer(offset SIZE_MAX)",
           clEnqueueReadBuffer(queue, mine, CL_TRUE, SIZE_MAX, 1, host, 0, NULL, NULL), CL_INVALID_VALUE);
    expect("clEnqueueReadBuffer(offset + size wraps)",
           clEnqueueReadBuffer(queue, mine, CL_FALSE, 16, SIZE_MAX - 8, host, 0, NULL, NULL), CL_INVALID_VALUE);
    expect("clEnqueueWriteBuffer(size SIZE_MAX)",
           clEnqueueWriteBuffer(queue, mine, CL_TRUE, 0, SIZE_MAX, host, 0, NULL, NULL), CL_INVALID_VALUE);
    expect("clEnqueueWriteBuffer(offset + size wraps)",
           clEnqueueWriteBuffer(queue, mine, CL_FALSE, 16, SIZE_MAX - 8, host, 0, NULL, NULL), CL_INVALID_VALUE);
    expect("clEnqueueCopyBuffer(size SIZE_MAX)",
           clEnqueueCopyBuffer(queue, mine, mine, 0, 64, SIZE_MAX, 0, NULL, NULL), CL_INVALID_VALUE);
    expect("clEnqueueCopyBuffer(offset + size wraps)",
           clEnqueueCopyBuffer(queue, mine, mine, SIZE_MAX - 4, 0, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    expect("clEnqueueFillBuffer(offset + size wraps)",
           clEnqueueFillBuffer(queue, mine, &pattern, sizeof pattern, SIZE_MAX - 3, 8, 0, NULL, NULL),
           CL_INVALID_VALUE);
    expect("clEnqueueFillBuffer(pattern SIZE_MAX)",
           clEnqueueFillBuffer(queue, mine, &pattern, SIZE_MAX, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    clEnqueueMapBuffer(queue, mine, CL_TRUE, CL_MAP_READ, 16, SIZE_MAX - 8, 0, NULL, NULL, &err);
    expect("clEnqueueMapBuffer(offset + size wraps)", err, CL_INVALID_VALUE);
    size_t huge_region[3] = {SIZE_MAX, 1, 1}, far_origin[3] = {0, 0, SIZE_MAX};
    expect("clEnqueueReadBufferRect(region SIZE_MAX)",
           clEnqueueReadBufferRect(queue, mine, CL_TRUE, origin, origin, huge_region, 0, 0, 0, 0, host, 0, NULL,
                                   NULL),
           CL_INVALID_VALUE);
    expect("clEnqueueReadBufferRect(origin SIZE_MAX)",
           clEnqueueReadBufferRect(queue, mine, CL_TRUE, far_origin, origin, region, 0, 0, 0, 0, host, 0, NULL,
                                   NULL),
           CL_INVALID_VALUE);
    expect("clEnqueueWriteBufferRect(host pitch wraps)",
           clEnqueueWriteBufferRect(queue, mine, CL_TRUE, origin, origin, region, 0, 0, SIZE_MAX / 2 + 1, 0, host,
                                    0, NULL, NULL),
           CL_INVALID_VALUE);
    expect("clEnqueueWriteBufferRect(host origin SIZE_MAX)",
           clEnqueueWriteBufferRect(queue, mine, CL_TRUE, origin, far_origin, region, 0, 0, 0, 0, host, 0, NULL,
                                    NULL),
           CL_INVALID_VALUE);
    expect("clEnqueueCopyBufferRect(slice pitch wraps)",
           clEnqueueCopyBufferRect(queue, mine, mine, origin, origin, (size_t[3]){16, 2, 3}, 16,
                                   SIZE_MAX / 2 & ~(size_t)15, 0, 0, 0, NULL, NULL),
           CL_INVALID_VALUE);

    /* Work sizes: an offset that would wrap is refused before anything
     * runs. */
    clEnqueueFillBuffer(queue, mine, &(cl_uint){0}, sizeof(cl_uint), 0, 4096, 0, NULL, NULL);
    size_t wrapping_offset = SIZE_MAX - 4, eight = 8;
    expect("clEnqueueNDRangeKernel(global offset SIZE_MAX - 4)",
           clEnqueueNDRangeKernel(queue, kernel, 1, &wrapping_offset, &eight, NULL, 0, NULL, NULL),
           CL_INVALID_GLOBAL_OFFSET);
    size_t endless = SIZE_MAX;
    expect("clEnqueueNDRangeKernel(global size SIZE_MAX)",
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &endless, NULL, 0, NULL, NULL),
           CL_INVALID_GLOBAL_WORK_SIZE);
    expect("clEnqueueNDRangeKernel(local size SIZE_MAX)",
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &eight, &endless, 0, NULL, NULL),
           CL_INVALID_WORK_ITEM_SIZE);
    /* OpenCL 2.1 and later: a NULL global size launches nothing and
     * succeeds, its event complete once its wait list is; work_dim is
     * still checked. */
    expect("clEnqueueNDRangeKernel(work_dim 0, NULL global size)",
           clEnqueueNDRangeKernel(queue, kernel, 0, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    cl_event gate = clCreateUserEvent(ctx, &err), empty;
    for (cl_uint dims = 1; dims <= 3; dims++)
        expect("clEnqueueNDRangeKernel(NULL global size)",
               clEnqueueNDRangeKernel(queue, kernel, dims, NULL, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
    expect("clEnqueueNDRangeKernel(NULL global size, behind a user event)",
           clEnqueueNDRangeKernel(queue, kernel, 2, NULL, NULL, NULL, 1, &gate, &empty), CL_SUCCESS);
    cl_command_type empty_type = 0;
    cl_int empty_status = CL_COMPLETE;
    clGetEventInfo(empty, CL_EVENT_COMMAND_TYPE, sizeof empty_type, &empty_type, NULL);
    clGetEventInfo(empty, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof empty_status, &empty_status, NULL);
    expect_true("an empty launch is an NDRange command", empty_type == CL_COMMAND_NDRANGE_KERNEL);
    expect_true("an empty launch waits for its wait list", empty_status > CL_COMPLETE);
    clSetUserEventStatus(gate, CL_COMPLETE);
    expect("clWaitForEvents(empty launch)", clWaitForEvents(1, &empty), CL_SUCCESS);
    clGetEventInfo(empty, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof empty_status, &empty_status, NULL);
    expect_true("an empty launch completes", empty_status == CL_COMPLETE);
    clReleaseEvent(empty);
    clReleaseEvent(gate);
    cl_uint ids[64];
    clEnqueueReadBuffer(queue, mine, CL_TRUE, 0, sizeof ids, ids, 0, NULL, NULL);
    int untouched = 1;
    for (int i = 0; i < 64; i++)
        untouched &= ids[i] == 0;
    expect_true("no refused launch ran", untouched);

    /* Rectangles within one buffer at different pitches. Rows of 4 bytes
     * at pitch 8 (0-3, 8-11, 16-19) and at pitch 16 from byte 4 (4-7,
     * 20-23, 36-39) interleave without touching; from byte 16 at pitch 16
     * the first row meets the third. */
    size_t narrow[3] = {4, 3, 1}, from_4[3] = {4, 0, 0}, from_16[3] = {16, 0, 0};
    unsigned char bytes[64];
    for (int i = 0; i < 64; i++)
        bytes[i] = (unsigned char)i;
    clEnqueueWriteBuffer(queue, mine, CL_TRUE, 0, sizeof bytes, bytes, 0, NULL, NULL);
    expect("clEnqueueCopyBufferRect(interleaved rows, pitches 8 and 16)",
           clEnqueueCopyBufferRect(queue, mine, mine, origin, from_4, narrow, 8, 0, 16, 0, 0, NULL, NULL),
           CL_SUCCESS);
    clEnqueueReadBuffer(queue, mine, CL_TRUE, 0, sizeof bytes, bytes, 0, NULL, NULL);
    expect_true("the rows landed", bytes[4] == 0 && bytes[7] == 3 && bytes[20] == 8 && bytes[39] == 19 &&
                                       bytes[8] == 8 && bytes[24] == 24);
    expect("clEnqueueCopyBufferRect(overlapping rows, pitches 8 and 16)",
           clEnqueueCopyBufferRect(queue, mine, mine, origin, from_16, narrow, 8, 0, 16, 0, 0, NULL, NULL),
           CL_MEM_COPY_OVERLAP);
    cl_buffer_region low = {0, 1024}, high = {1024, 1024};
    cl_mem low_half = clCreateSubBuffer(mine, 0, CL_BUFFER_CREATE_TYPE_REGION, &low, &err);
    cl_mem high_half = clCreateSubBuffer(mine, 0, CL_BUFFER_CREATE_TYPE_REGION, &high, &err);
    size_t second_row[3] = {0, 1, 0};
    if (err == CL_SUCCESS) {
        /* The second row at pitch 512 of the low half is bytes 512-515 of
         * the parent. */
        expect("clEnqueueCopyBufferRect(a sub-buffer and its parent overlapping)",
               clEnqueueCopyBufferRect(queue, low_half, mine, second_row, (size_t[3]){512, 0, 0},
                                       (size_t[3]){4, 1, 1}, 512, 0, 16, 0, 0, NULL, NULL),
               CL_MEM_COPY_OVERLAP);
        expect("clEnqueueCopyBufferRect(sibling sub-buffers apart)",
               clEnqueueCopyBufferRect(queue, low_half, high_half, origin, origin, narrow, 8, 0, 16, 0, 0, NULL,
                                       NULL),
               CL_SUCCESS);
        clReleaseMemObject(low_half);
        clReleaseMemObject(high_half);
    }
    clFinish(queue);

    clReleaseEvent(their_event);
    clReleaseKernel(kernel);
    clReleaseKernel(other_kernel);
    clReleaseProgram(program);
    clReleaseProgram(other_program);
    clReleaseMemObject(mine);
    clReleaseMemObject(theirs);
    clReleaseCommandQueue(queue);
    clReleaseCommandQueue(other_queue);
    clReleaseContext(ctx);
    clReleaseContext(other);
    return finish();
}
