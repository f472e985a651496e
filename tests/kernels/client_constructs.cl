// Constructs met in third-party clients (hashcat, CLBlast, piglit), each
// reduced to a kernel of its own.

// hashcat's markov_le.cl: a pointer to a struct that moves from one buffer
// argument to another inside a loop, then an element of the struct's array
// member read with a 64-bit index.
typedef struct {
  uint cs_buf[8];
  uint cs_len;
} cs_t;

kernel void markov_walk(global const cs_t *root, global const cs_t *chain,
                        global uint *out, ulong seed) {
  uint gid = get_global_id(0);
  global const cs_t *cs = &root[gid % 4];
  ulong val = seed + gid;
  uint acc = 0;
  for (uint i = 0; i < 6; i++) {
    const uint len = cs->cs_len;
    const ulong pos = val % len;
    val /= len;
    const uint key = cs->cs_buf[pos];
    acc = acc * 31 + key;
    cs = &chain[(i * 8 + key) % 16];
  }
  out[gid] = acc;
}

// hashcat's SHA-512 round constants: enumerators beyond `int` keep their
// 64-bit values, and their enum is 8 bytes (as clang and GCC have it).
typedef enum big_constants {
  BIG0 = 0x428a2f98d728ae22UL,
  BIG1,
  SMALL = 5,
} big_constants_t;
enum mixed { NEGATIVE = -3, WIDE = 0x123456789L };
enum unsigned_only { TOP = 0x80000000 };

constant ulong table[3] = {BIG0, BIG1, SMALL};

kernel void wide_enumerators(global ulong *out, global long *signed_out) {
  enum big_constants e = BIG1;
  big_constants_t t = BIG0;
  out[0] = table[0];
  out[1] = table[1];
  out[2] = table[2];
  out[3] = e;
  out[4] = t + 1;
  out[5] = sizeof(enum big_constants) * 100 + sizeof(big_constants_t) * 10 +
           sizeof(BIG0);
  out[6] = sizeof(SMALL) * 100 + sizeof(enum unsigned_only) * 10 +
           sizeof(enum mixed);
  out[7] = TOP;
  signed_out[0] = NEGATIVE;
  signed_out[1] = WIDE;
  signed_out[2] = (enum mixed)NEGATIVE;
  signed_out[3] = (long)TOP;
}
