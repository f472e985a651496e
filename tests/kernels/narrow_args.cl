// char/short kernel arguments, packed next to each other in the push
// constants as the C layout puts them.
__kernel void narrow_args(__global int *out, uchar a, char b, short c, float scale, ushort d)
{
    size_t i = get_global_id(0);
    out[i] = (int)((a + b * c + d) * scale) + (int)i;
}
