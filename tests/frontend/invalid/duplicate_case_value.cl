// expect: 15:10: error: duplicate case value
// Two case labels with the same value (one via an enum): reported at the
// second value.
enum { MODE_COPY = 1, MODE_FILL = 2 };

__kernel void k(__global int *data, const int mode)
{
    switch (mode) {
    case MODE_COPY:
        data[1] = data[0];
        break;
    case MODE_FILL:
        data[1] = 0;
        break;
    case 2:
        data[1] = -1;
        break;
    }
}
