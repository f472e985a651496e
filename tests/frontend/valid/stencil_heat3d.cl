// 7-point 3-D heat-equation stencil over a 3-D NDRange, with size_t index
// arithmetic and the coefficients passed as a float4 (c0, c1, unused...).
inline size_t at(size_t x, size_t y, size_t z, size_t nx, size_t ny)
{
    return (z * ny + y) * nx + x;
}

__kernel void heat3d(__global const float *in, __global float *out,
                     const uint nx, const uint ny, const uint nz,
                     const float4 coeff)
{
    const size_t x = get_global_id(0);
    const size_t y = get_global_id(1);
    const size_t z = get_global_id(2);
    if (x == 0 || y == 0 || z == 0 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1)
        return;
    const float c = in[at(x, y, z, nx, ny)];
    const float neighbours = in[at(x - 1, y, z, nx, ny)] + in[at(x + 1, y, z, nx, ny)] +
                             in[at(x, y - 1, z, nx, ny)] + in[at(x, y + 1, z, nx, ny)] +
                             in[at(x, y, z - 1, nx, ny)] + in[at(x, y, z + 1, nx, ny)];
    out[at(x, y, z, nx, ny)] = coeff.x * c + coeff.y * neighbours;
}
