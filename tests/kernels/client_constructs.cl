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
