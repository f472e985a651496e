// 2-D Jacobi relaxation step for Laplace's equation on a grid with fixed
// boundary values; ping-pong buffers are swapped by the host.
__kernel void jacobi_step(__global const float *restrict u,
                          __global float *restrict u_next,
                          __global const float *restrict rhs,
                          const int nx, const int ny, const float h2)
{
    const int i = get_global_id(0);
    const int j = get_global_id(1);
    if (i >= nx || j >= ny)
        return;
    const int idx = j * nx + i;
    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        u_next[idx] = u[idx];
        return;
    }
    u_next[idx] = 0.25f * (u[idx - 1] + u[idx + 1] + u[idx - nx] + u[idx + nx] - h2 * rhs[idx]);
}
