// expect: 6:32: error: invalid digit '9' in octal constant
// A leading zero makes the literal octal, and 9 is not an octal digit:
// the caret is on the digit.
__kernel void mask(__global int *data)
{
    data[get_global_id(0)] &= 09;
}
