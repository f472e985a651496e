// Conway's game of life on a torus: neighbour counts with wrap-around via
// modulo, a ternary for the rule, and uchar cells.
__kernel void life_step(__global const uchar *cells, __global uchar *next,
                        const int width, const int height)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    int alive = 0;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            if (dx == 0 && dy == 0)
                continue;
            const int nx = (x + dx + width) % width;
            const int ny = (y + dy + height) % height;
            alive += cells[ny * width + nx] ? 1 : 0;
        }
    }
    const uchar self = cells[y * width + x];
    next[y * width + x] = (alive == 3 || (self && alive == 2)) ? 1 : 0;
}
