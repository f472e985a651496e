/* Negative paths through the real loader: bad handles, sizes, options and
 * sources give the spec's error codes, build errors reach the build log in
 * clang style, and entry points not built yet fail cleanly. Prints one line
 * per check and exits non-zero if any fails. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void expect(const char *what, cl_int got, cl_int want)
{
    printf("%s: %s (%d)\n", what, got == want ? "ok" : "WRONG", got);
    if (got != want)
        failures++;
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    char log[8192];

    expect("clGetPlatformIDs(0, NULL, NULL)", clGetPlatformIDs(0, NULL, NULL), CL_INVALID_VALUE);
    expect("clGetPlatformIDs", clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    expect("clGetDeviceIDs", clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
    cl_uint value;
    expect("clGetDeviceInfo(bogus param)",
           clGetDeviceInfo(device, 0x7fff, sizeof value, &value, NULL), CL_INVALID_VALUE);
    expect("clGetDeviceInfo(too small)",
           clGetDeviceInfo(device, CL_DEVICE_NAME, 1, log, NULL), CL_INVALID_VALUE);

    clCreateBuffer(NULL, CL_MEM_READ_WRITE, 16, NULL, &err);
    expect("clCreateBuffer(NULL context)", err, CL_INVALID_CONTEXT);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    expect("clCreateContext", err, CL_SUCCESS);
    clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &err);
    expect("clCreateBuffer(size 0)", err, CL_INVALID_BUFFER_SIZE);
    clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 16, NULL, &err);
    expect("clCreateBuffer(conflicting flags)", err, CL_INVALID_VALUE);
    clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 16, NULL, &err);
    expect("clCreateBuffer(COPY_HOST_PTR, NULL)", err, CL_INVALID_HOST_PTR);
    expect("clReleaseMemObject(NULL)", clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);

    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    expect("clCreateCommandQueue", err, CL_SUCCESS);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    expect("clCreateBuffer", err, CL_SUCCESS);
    expect("clEnqueueReadBuffer(past the end)",
           clEnqueueReadBuffer(queue, buf, CL_TRUE, 32, 64, log, 0, NULL, NULL), CL_INVALID_VALUE);

    const char *bad = "__kernel void k(__global int *p)\n{\n    p[0] = x;\n    p[1] = y\n}\n";
    cl_program program = clCreateProgramWithSource(ctx, 1, &bad, NULL, &err);
    expect("clCreateProgramWithSource", err, CL_SUCCESS);
    expect("clBuildProgram(bad source)", clBuildProgram(program, 1, &device, "", NULL, NULL),
           CL_BUILD_PROGRAM_FAILURE);
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    int logged = strstr(log, "<source>:3:12: error: use of undeclared identifier 'x'") != NULL &&
                 strstr(log, "<source>:4:13: error: expected ';'") != NULL;
    expect("build log lists both errors", logged ? CL_SUCCESS : -1, CL_SUCCESS);
    if (!logged)
        printf("%s\n", log);
    cl_build_status status;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    expect("CL_PROGRAM_BUILD_STATUS", status, CL_BUILD_ERROR);
    expect("clBuildProgram(bad option)",
           clBuildProgram(program, 1, &device, "-cl-no-such-option", NULL, NULL),
           CL_INVALID_BUILD_OPTIONS);
    clReleaseProgram(program);

    const char *good = "__kernel void k(__global int *p, int v) { p[get_global_id(0)] = v; }\n";
    program = clCreateProgramWithSource(ctx, 1, &good, NULL, &err);
    expect("clBuildProgram", clBuildProgram(program, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    clCreateKernel(program, "nope", &err);
    expect("clCreateKernel(wrong name)", err, CL_INVALID_KERNEL_NAME);
    cl_kernel kernel = clCreateKernel(program, "k", &err);
    expect("clCreateKernel", err, CL_SUCCESS);
    size_t global = 16;
    expect("clEnqueueNDRangeKernel(args unset)",
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL),
           CL_INVALID_KERNEL_ARGS);
    cl_int v = 7;
    expect("clSetKernelArg(bad index)", clSetKernelArg(kernel, 2, sizeof v, &v), CL_INVALID_ARG_INDEX);
    expect("clSetKernelArg(bad size)", clSetKernelArg(kernel, 1, 2, &v), CL_INVALID_ARG_SIZE);
    expect("clSetKernelArg(not a buffer)", clSetKernelArg(kernel, 0, sizeof v, &v), CL_INVALID_ARG_SIZE);
    expect("clSetKernelArg(buffer)", clSetKernelArg(kernel, 0, sizeof buf, &buf), CL_SUCCESS);
    expect("clSetKernelArg(int)", clSetKernelArg(kernel, 1, sizeof v, &v), CL_SUCCESS);
    size_t local = 5;
    expect("clEnqueueNDRangeKernel(local does not divide)",
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL),
           CL_INVALID_WORK_GROUP_SIZE);
    expect("clEnqueueNDRangeKernel(work_dim 4)",
           clEnqueueNDRangeKernel(queue, kernel, 4, NULL, &global, NULL, 0, NULL, NULL),
           CL_INVALID_WORK_DIMENSION);
    expect("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL),
           CL_SUCCESS);
    cl_int out[16];
    expect("clEnqueueReadBuffer", clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
           CL_SUCCESS);
    expect("kernel wrote 7", out[15] == 7 ? CL_SUCCESS : -1, CL_SUCCESS);

    /* Sub-buffers: a region at the device's base-address alignment, seen
       by reads, writes, kernels and copies; and the creation errors. */
    cl_uint align_bits = 0;
    clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    size_t align = align_bits / 8, whole = 4 * align + 256;
    cl_mem parent = clCreateBuffer(ctx, CL_MEM_READ_WRITE, whole, NULL, &err);
    cl_int zeros[1024] = {0};
    clEnqueueWriteBuffer(queue, parent, CL_TRUE, 0, whole < sizeof zeros ? whole : sizeof zeros, zeros, 0,
                         NULL, NULL);
    cl_buffer_region region = {align, 64};
    cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    expect("clCreateSubBuffer", err, CL_SUCCESS);
    size_t sub_offset = 0;
    clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof sub_offset, &sub_offset, NULL);
    expect("CL_MEM_OFFSET", sub_offset == align ? CL_SUCCESS : -1, CL_SUCCESS);
    expect("clSetKernelArg(sub-buffer)", clSetKernelArg(kernel, 0, sizeof sub, &sub), CL_SUCCESS);
    expect("clEnqueueNDRangeKernel(sub-buffer)",
           clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    cl_int through_parent[16];
    expect("clEnqueueReadBuffer(parent)",
           clEnqueueReadBuffer(queue, parent, CL_TRUE, align, sizeof through_parent, through_parent, 0, NULL,
                               NULL),
           CL_SUCCESS);
    expect("kernel wrote the sub-buffer's region",
           through_parent[0] == 7 && through_parent[15] == 7 ? CL_SUCCESS : -1, CL_SUCCESS);
    cl_int before = -1;
    clEnqueueReadBuffer(queue, parent, CL_TRUE, align - 4, 4, &before, 0, NULL, NULL);
    expect("nothing before the region", before == 0 ? CL_SUCCESS : -1, CL_SUCCESS);
    cl_int nine = 9;
    clEnqueueWriteBuffer(queue, sub, CL_TRUE, 8, 4, &nine, 0, NULL, NULL);
    clEnqueueReadBuffer(queue, parent, CL_TRUE, align + 8, 4, &before, 0, NULL, NULL);
    expect("write through the sub-buffer", before == 9 ? CL_SUCCESS : -1, CL_SUCCESS);
    expect("clEnqueueCopyBuffer(sub-buffer onto its parent, overlapping)",
           clEnqueueCopyBuffer(queue, sub, parent, 0, align + 16, 32, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    expect("clEnqueueCopyBuffer(sub-buffer to parent)",
           clEnqueueCopyBuffer(queue, sub, parent, 0, 0, 64, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(queue, parent, CL_TRUE, 8, 4, &before, 0, NULL, NULL);
    expect("copied from the sub-buffer", before == 9 ? CL_SUCCESS : -1, CL_SUCCESS);
    clSetKernelArg(kernel, 0, sizeof buf, &buf);
    cl_buffer_region misaligned = {align / 2, 16};
    clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err);
    expect("clCreateSubBuffer(misaligned)", align > 1 ? err : CL_MISALIGNED_SUB_BUFFER_OFFSET,
           CL_MISALIGNED_SUB_BUFFER_OFFSET);
    cl_buffer_region outside = {0, whole + 4};
    clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err);
    expect("clCreateSubBuffer(outside)", err, CL_INVALID_VALUE);
    cl_buffer_region empty = {0, 0};
    clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &err);
    expect("clCreateSubBuffer(size 0)", err, CL_INVALID_BUFFER_SIZE);
    cl_buffer_region first = {0, 16};
    clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &first, &err);
    expect("clCreateSubBuffer(of a sub-buffer)", err, CL_INVALID_MEM_OBJECT);
    clCreateSubBuffer(parent, 0, 0x1221, &first, &err);
    expect("clCreateSubBuffer(unknown type)", err, CL_INVALID_VALUE);
    cl_mem read_only = clCreateBuffer(ctx, CL_MEM_READ_ONLY, 64, NULL, &err);
    clCreateSubBuffer(read_only, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &first, &err);
    expect("clCreateSubBuffer(wider access)", err, CL_INVALID_VALUE);
    clReleaseMemObject(read_only);
    clReleaseMemObject(sub);
    clReleaseMemObject(parent);

    /* Rectangles: an 8x8 int matrix in a buffer; a 3x4 block written from
       one host layout, read back into another, and copied within the
       buffer; then the error codes. */
    cl_mem matrix = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), NULL, &err);
    cl_int host_matrix[64], block_out[5 * 6], whole_out[64];
    for (int i = 0; i < 64; i++)
        host_matrix[i] = 1000 + i;
    clEnqueueWriteBuffer(queue, matrix, CL_TRUE, 0, sizeof zeros[0] * 64, zeros, 0, NULL, NULL);
    size_t row = 8 * sizeof(cl_int);
    size_t buffer_origin[3] = {2 * sizeof(cl_int), 3, 0}, host_origin[3] = {1 * sizeof(cl_int), 2, 0};
    size_t block[3] = {3 * sizeof(cl_int), 4, 1};
    expect("clEnqueueWriteBufferRect",
           clEnqueueWriteBufferRect(queue, matrix, CL_TRUE, buffer_origin, host_origin, block, row, 0, row, 0,
                                    host_matrix, 0, NULL, NULL),
           CL_SUCCESS);
    clEnqueueReadBuffer(queue, matrix, CL_TRUE, 0, sizeof whole_out, whole_out, 0, NULL, NULL);
    int rect_ok = 1;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            int inside = x >= 2 && x < 5 && y >= 3 && y < 7;
            int want = inside ? 1000 + (y - 3 + 2) * 8 + (x - 2 + 1) : 0;
            rect_ok &= whole_out[y * 8 + x] == want;
        }
    expect("rect written where it belongs", rect_ok ? CL_SUCCESS : -1, CL_SUCCESS);
    size_t out_origin[3] = {2 * sizeof(cl_int), 1, 0};
    for (int i = 0; i < 30; i++)
        block_out[i] = -1;
    expect("clEnqueueReadBufferRect",
           clEnqueueReadBufferRect(queue, matrix, CL_TRUE, buffer_origin, out_origin, block, row, 0,
                                   6 * sizeof(cl_int), 0, block_out, 0, NULL, NULL),
           CL_SUCCESS);
    expect("rect read into a 6-wide layout",
           block_out[1 * 6 + 2] == 1000 + 2 * 8 + 1 && block_out[4 * 6 + 4] == 1000 + 5 * 8 + 3 &&
                   block_out[0] == -1 && block_out[1 * 6 + 5] == -1
               ? CL_SUCCESS
               : -1,
           CL_SUCCESS);
    size_t left[3] = {2 * sizeof(cl_int), 3, 0}, right[3] = {5 * sizeof(cl_int), 3, 0};
    expect("clEnqueueCopyBufferRect(side by side)",
           clEnqueueCopyBufferRect(queue, matrix, matrix, left, right, block, row, 0, row, 0, 0, NULL, NULL),
           CL_SUCCESS);
    clEnqueueReadBuffer(queue, matrix, CL_TRUE, 0, sizeof whole_out, whole_out, 0, NULL, NULL);
    expect("rect copied", whole_out[3 * 8 + 5] == whole_out[3 * 8 + 2] && whole_out[6 * 8 + 7] == whole_out[6 * 8 + 4]
                              ? CL_SUCCESS
                              : -1,
           CL_SUCCESS);
    size_t shifted[3] = {3 * sizeof(cl_int), 4, 0};
    expect("clEnqueueCopyBufferRect(overlapping)",
           clEnqueueCopyBufferRect(queue, matrix, matrix, left, shifted, block, row, 0, row, 0, 0, NULL, NULL),
           CL_MEM_COPY_OVERLAP);
    expect("clEnqueueReadBufferRect(row pitch too small)",
           clEnqueueReadBufferRect(queue, matrix, CL_TRUE, buffer_origin, host_origin, block, 2, 0, row, 0,
                                   block_out, 0, NULL, NULL),
           CL_INVALID_VALUE);
    size_t too_far[3] = {0, 6, 0};
    expect("clEnqueueWriteBufferRect(outside)",
           clEnqueueWriteBufferRect(queue, matrix, CL_TRUE, too_far, host_origin, block, row, 0, row, 0,
                                    host_matrix, 0, NULL, NULL),
           CL_INVALID_VALUE);
    clReleaseMemObject(matrix);


    /* Mapping: the kernel's output read through a map, written through
       another, and the error codes of bad maps and unmaps. */
    cl_int *mapped = clEnqueueMapBuffer(queue, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                        sizeof out, 0, NULL, NULL, &err);
    expect("clEnqueueMapBuffer", err, CL_SUCCESS);
    expect("mapped data", mapped != NULL && mapped[15] == 7 ? CL_SUCCESS : -1, CL_SUCCESS);
    cl_uint map_count = 0;
    clGetMemObjectInfo(buf, CL_MEM_MAP_COUNT, sizeof map_count, &map_count, NULL);
    expect("CL_MEM_MAP_COUNT", map_count == 1 ? CL_SUCCESS : -1, CL_SUCCESS);
    if (mapped != NULL)
        mapped[3] = 1234;
    expect("clEnqueueUnmapMemObject", clEnqueueUnmapMemObject(queue, buf, mapped, 0, NULL, NULL),
           CL_SUCCESS);
    expect("clEnqueueUnmapMemObject(twice)", clEnqueueUnmapMemObject(queue, buf, mapped, 0, NULL, NULL),
           CL_INVALID_VALUE);
    cl_int *invalidated = clEnqueueMapBuffer(queue, buf, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                             8 * sizeof(cl_int), 4 * sizeof(cl_int), 0, NULL, NULL, &err);
    expect("clEnqueueMapBuffer(WRITE_INVALIDATE_REGION)", err, CL_SUCCESS);
    for (int i = 0; invalidated != NULL && i < 4; i++)
        invalidated[i] = -i;
    expect("clEnqueueUnmapMemObject(invalidated)",
           clEnqueueUnmapMemObject(queue, buf, invalidated, 0, NULL, NULL), CL_SUCCESS);
    expect("clEnqueueReadBuffer(after unmap)",
           clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
    expect("written through maps", out[3] == 1234 && out[9] == -1 && out[15] == 7 ? CL_SUCCESS : -1,
           CL_SUCCESS);
    void *refused = clEnqueueMapBuffer(queue, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                       16, 0, NULL, NULL, &err);
    expect("clEnqueueMapBuffer(READ|WRITE_INVALIDATE_REGION)", refused == NULL ? err : -1, CL_INVALID_VALUE);
    refused = clEnqueueMapBuffer(queue, buf, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err);
    expect("clEnqueueMapBuffer(size 0)", refused == NULL ? err : -1, CL_INVALID_VALUE);
    refused = clEnqueueMapBuffer(queue, buf, CL_TRUE, CL_MAP_READ, 8, sizeof out, 0, NULL, NULL, &err);
    expect("clEnqueueMapBuffer(past the end)", refused == NULL ? err : -1, CL_INVALID_VALUE);
    expect("clEnqueueUnmapMemObject(foreign pointer)", clEnqueueUnmapMemObject(queue, buf, out, 0, NULL, NULL),
           CL_INVALID_VALUE);

    /* An out-of-order queue: accepted; commands ordered by their events. */
    cl_queue_properties ooo_props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue ooo = clCreateCommandQueueWithProperties(ctx, device, ooo_props, &err);
    expect("clCreateCommandQueueWithProperties(OUT_OF_ORDER)", err, CL_SUCCESS);
    cl_event wrote, ran;
    cl_int forty[16];
    for (int i = 0; i < 16; i++)
        forty[i] = 40;
    clEnqueueWriteBuffer(ooo, buf, CL_FALSE, 0, sizeof forty, forty, 0, NULL, &wrote);
    cl_int three = 3;
    clSetKernelArg(kernel, 1, sizeof three, &three);
    size_t eight = 8;
    expect("clEnqueueNDRangeKernel(out-of-order, after the write)",
           clEnqueueNDRangeKernel(ooo, kernel, 1, NULL, &eight, NULL, 1, &wrote, &ran), CL_SUCCESS);
    expect("clEnqueueReadBuffer(out-of-order, after the kernel)",
           clEnqueueReadBuffer(ooo, buf, CL_TRUE, 0, sizeof out, out, 1, &ran, NULL), CL_SUCCESS);
    expect("out-of-order result", out[7] == 3 && out[8] == 40 ? CL_SUCCESS : -1, CL_SUCCESS);
    clReleaseEvent(wrote);
    clReleaseEvent(ran);
    clReleaseCommandQueue(ooo);

    /* clCloneKernel copies the arguments set so far; a later change to the
     * original does not reach the clone. */
    clCloneKernel(NULL, &err);
    expect("clCloneKernel(NULL)", err, CL_INVALID_KERNEL);
    cl_kernel twin = clCloneKernel(kernel, &err);
    expect("clCloneKernel", err, CL_SUCCESS);
    cl_int five = 5;
    clSetKernelArg(kernel, 1, sizeof five, &five);
    expect("clEnqueueNDRangeKernel(clone)",
           clEnqueueNDRangeKernel(queue, twin, 1, NULL, &eight, NULL, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    expect("the clone keeps its arguments", out[0] == 3 ? CL_SUCCESS : -1, CL_SUCCESS);
    clReleaseKernel(twin);

    cl_ulong host_before, host_after, device_now;
    expect("clGetHostTimer(NULL)", clGetHostTimer(device, NULL), CL_INVALID_VALUE);
    expect("clGetHostTimer(NULL device)", clGetHostTimer(NULL, &host_before), CL_INVALID_DEVICE);
    expect("clGetHostTimer", clGetHostTimer(device, &host_before), CL_SUCCESS);
    expect("clGetDeviceAndHostTimer", clGetDeviceAndHostTimer(device, &device_now, &host_after),
           CL_SUCCESS);
    expect("the timers advance", host_after >= host_before && device_now >= host_before ? CL_SUCCESS : -1,
           CL_SUCCESS);

    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    printf("%d failures\n", failures);
    return failures != 0;
}
