// Loops over private arrays with constant trip counts, which the
// translator unrolls (translator/src/unroll), and loops it must leave
// alone. Each work-item computes one uint from its global id; the host
// computes the same (tests/unrolled_loops.rs). Sums are uints so that
// overflow wraps, as it does on the host.

#define N 64

kernel void ascending(global uint *out)
{
    int g = get_global_id(0);
    int a[8];
    for (int i = 0; i < 8; i++)
        a[i] = g * (i + 1) - i * i;
    uint s = 0;
    for (int i = 0; i < 8; i++)
        s = s * 3 + a[i] * (i + 3);
    out[g] = s;
}

kernel void descending(global uint *out)
{
    int g = get_global_id(0);
    int a[8];
    for (int i = 7; i >= 0; i--)
        a[i] = g + i * 5;
    uint s = 0;
    for (int i = 7; i > -1; --i)
        s = s * 3 + a[i];
    out[g] = s;
}

kernel void bounds_and_steps(global uint *out)
{
    int g = get_global_id(0);
    int a[10];
    for (int i = 0; i <= 9; i++)
        a[i] = g ^ (i * 13);
    uint s = 0;
    for (int i = 1; i < 10; i += 3)     // 1, 4, 7
        s = s * 7 + a[i];
    for (int i = 9; i > 0; i -= 4)      // 9, 5, 1
        s = s * 5 + a[i];
    for (uint i = 1; i < 10; i *= 2)    // 1, 2, 4, 8
        s = s * 11 + a[i];
    for (int i = 2; i != 10; i += 2)    // 2, 4, 6, 8
        s = s * 13 + a[i];
    out[g] = s;
}

kernel void nested(global uint *out)
{
    int g = get_global_id(0);
    int acc[4][5];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++)
            acc[r][c] = g * r + c;
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 5; c++)
                acc[r][c] += (r + 1) * (c + k);
    uint s = 0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++)
            s = s * 3 + acc[r][c];
    out[g] = s;
}

kernel void counter_after(global uint *out)
{
    int g = get_global_id(0);
    int a[6];
    int i;
    for (i = 0; i < 6; i++)
        a[i] = g + i;
    uint s = i * 100;                   // 600
    int j = 42;
    for (j = 3; j < 3; j++)             // no iteration
        a[j] = -1;
    s += j;                             // 3
    for (i = 10; i < 4; i++)            // none: its index would be past the end
        a[i - 10] = 99;
    s += i;                             // 10
    for (i = 0; i < 6; i++)
        s = s * 2 + a[i];
    s += i;                             // 6
    out[g] = s;
}

kernel void wrapping_counter(global uint *out)
{
    int g = get_global_id(0);
    uint a[10];
    for (int i = 0; i < 10; i++)
        a[i] = 0;
    // 250 ... 255, 0 ... 3: the uchar wraps.
    for (uchar c = 250; c != 4; c++)
        a[c % 10] += c + g;
    uint s = 0;
    for (int i = 0; i < 10; i++)
        s = s * 3 + a[i];
    out[g] = s;
}

kernel void unreached_copies(global uint *out)
{
    int g = get_global_id(0);
    int small[4];
    int big[8];
    // The copies for i >= 4 index `small` past its end, under a test
    // that is false there.
    for (int i = 0; i < 8; i++) {
        if (i < 4)
            small[i] = g + i;
        big[i] = g * i;
    }
    for (int i = 0; i < 8; i++) {
        if (i < 4)
            big[i] += small[i];
    }
    uint s = 0;
    for (int i = 0; i < 8; i++)
        s = s * 5 + big[i];
    out[g] = s;
}

kernel void early_return(global uint *out)
{
    int g = get_global_id(0);
    int a[8];
    for (int i = 0; i < 8; i++)
        a[i] = (g * 5 + i * 3) % 11;
    out[g] = 100;
    for (int i = 0; i < 8; i++) {
        if (a[i] == 7) {
            out[g] = i;
            return;
        }
    }
}

kernel void pragmas(global const uint *in, global uint *out)
{
    int g = get_global_id(0);
    uint s = 0;
#pragma unroll
    for (int i = 0; i < 16; i++)
        s += in[(g + i) % N] * (i + 1);
#pragma unroll 4
    for (int i = 0; i < 12; i++)        // four bodies per iteration
        s = s * 3 + in[(g * 3 + i) % N];
#pragma unroll 4
    for (int i = 0; i < 10; i++)        // 4 does not divide 10: kept
        s = s * 5 + in[(g + 2 * i) % N];
#pragma unroll 32
    for (int i = 0; i < 8; i++)         // a count past the trip count
        s ^= in[(g + i * 7) % N] << (i & 3);
    __attribute__((opencl_unroll_hint(2)))
    for (int i = 0; i < 6; i++)
        s += i * in[g % N];
    __attribute__((opencl_unroll_hint))
    for (int i = 5; i >= 0; i--)
        s = s * 7 + in[(g + i) % N];
    int a[4];
#pragma nounroll
    for (int i = 0; i < 4; i++)
        a[i] = in[(g + i * 9) % N];
#pragma unroll 1
    for (int i = 0; i < 4; i++)
        s = s * 3 + a[i];
    out[g] = s;
}

kernel void kept_loops(global uint *out)
{
    int g = get_global_id(0);
    int a[8];
    for (int i = 0; i < 8; i++)
        a[i] = g + i * 7;
    uint s = 0;
    // The body writes the counter.
    for (int i = 0; i < 8; i++) {
        s += a[i];
        if (a[i] % 3 == 0)
            i++;
    }
    // The body leaves the loop.
    for (int i = 0; i < 8; i++) {
        if (a[i] % 5 == 4)
            break;
        s = s * 2 + a[i];
    }
    // The body starts the next iteration early, from a switch too.
    for (int i = 0; i < 8; i++) {
        if (a[i] & 1)
            continue;
        s += a[i] * i;
    }
    for (int i = 0; i < 8; i++) {
        switch (a[i] % 4) {
        case 0:
            continue;
        default:
            s += a[i];
        }
        s *= 3;
    }
    // A break inside a switch leaves the switch only: this one unrolls.
    for (int i = 0; i < 8; i++) {
        switch (a[i] % 3) {
        case 0:
            s += 1;
            break;
        case 1:
            s += i;
            break;
        default:
            s -= a[i];
        }
    }
    // A pointer to the counter.
    for (int i = 0; i < 8; i++) {
        int *p = &i;
        s = s * 5 + a[*p];
    }
    out[g] = s;
}

// 260 uint4s: more private memory than a CPU device lets a work-item
// keep addressed (4 KiB, layer/src/core/device.rs), which it needs only
// if the loops stay loops.
kernel void large_private(global const uint *in, global uint *out)
{
    int g = get_global_id(0);
    uint4 big[260];
#pragma unroll
    for (int i = 0; i < 260; i++)
        big[i] = (uint4)(in[(g + i) & (N - 1)], i, 3 * i, g);
    uint s = 0;
#pragma unroll
    for (int i = 0; i < 260; i++)
        s += big[i].x * ((i & 7) + 1) + big[i].y * big[i].z + big[i].w;
    out[g] = s;
}
