// Lattice-Boltzmann D2Q9 collision and streaming: direction vectors and
// weights in program-scope __constant tables (int2 and float), BGK update.
__constant int2 lbm_dir[9] = {
    (int2)(0, 0), (int2)(1, 0), (int2)(0, 1), (int2)(-1, 0), (int2)(0, -1),
    (int2)(1, 1), (int2)(-1, 1), (int2)(-1, -1), (int2)(1, -1)
};
__constant float lbm_w[9] = { 4.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f,
                              1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f };

__kernel void collide_stream(__global const float *f_in, __global float *f_out,
                             const int nx, const int ny, const float omega)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= nx || y >= ny)
        return;
    const int cells = nx * ny;
    const int idx = y * nx + x;
    float f[9];
    float rho = 0.0f;
    float2 u = (float2)(0.0f);
    for (int q = 0; q < 9; q++) {
        f[q] = f_in[q * cells + idx];
        rho += f[q];
        u += convert_float2(lbm_dir[q]) * f[q];
    }
    u /= rho;
    const float usq = dot(u, u);
    for (int q = 0; q < 9; q++) {
        const float cu = dot(convert_float2(lbm_dir[q]), u);
        const float feq = lbm_w[q] * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - 1.5f * usq);
        const int tx = (x + lbm_dir[q].x + nx) % nx;
        const int ty = (y + lbm_dir[q].y + ny) % ny;
        f_out[q * cells + ty * nx + tx] = f[q] + omega * (feq - f[q]);
    }
}
