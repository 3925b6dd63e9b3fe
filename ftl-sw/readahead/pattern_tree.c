/* The read-pattern analyser: see pattern_tree.h. */
#include "readahead/pattern_tree.h"

#define ADDR_WALK_LIMIT 64u   /* nodes of one address looked at when re-entering the tree */

static uint32_t mix(uint32_t x) {
  x *= 0x9E3779B1u;
  return x ^ (x >> 15);
}
static uint32_t child_key(const struct pattern_tree *t, uint32_t parent, uint32_t addr) {
  return mix(parent * 0x85EBCA77u ^ addr) & t->hash_mask;
}
static uint32_t addr_key(const struct pattern_tree *t, uint32_t addr) { return mix(addr) & t->hash_mask; }

void pt_init(struct pattern_tree *t, void *mem, uint32_t bytes, uint32_t branches, uint32_t depth,
             uint32_t sequential_run, uint32_t min_repeats) {
  uint8_t *raw = (uint8_t *)t;
  for (uint32_t i = 0; i < sizeof(*t); i++) raw[i] = 0;
  t->branches = branches;
  t->depth = depth;
  t->sequential_run = sequential_run;
  t->min_repeats = min_repeats;
  t->nnodes = pt_nodes_for(bytes);
  uint32_t buckets = pt_pow2_at_least(t->nnodes);
  t->node = (struct pt_node *)mem;
  t->child_hash = (uint32_t *)(t->node + t->nnodes);
  t->addr_hash = t->child_hash + buckets;
  t->hash_mask = buckets - 1u;
  for (uint32_t b = 0; b < buckets; b++) t->child_hash[b] = t->addr_hash[b] = PT_NONE;
  t->free_head = PT_NONE;
  for (uint32_t n = t->nnodes; n-- > 0;) {
    t->node[n].level = PT_NONE;      /* free */
    t->node[n].sibling = t->free_head;
    t->free_head = n;
  }
  t->root = t->cursor = PT_NONE;
  t->last_end = PT_NONE;
}

uint32_t pt_depth_of(const struct pattern_tree *t, uint32_t n) {
  return t->node[n].level - t->node[t->root].level + 1u;
}

uint32_t pt_child(const struct pattern_tree *t, uint32_t parent, uint32_t addr) {
  for (uint32_t n = t->child_hash[child_key(t, parent, addr)]; n != PT_NONE; n = t->node[n].hnext)
    if (t->node[n].parent == parent && t->node[n].addr == addr) return n;
  return PT_NONE;
}

static void chain_insert(struct pattern_tree *t, uint32_t *head, uint32_t n, int addr_chain) {
  struct pt_node *x = &t->node[n];
  uint32_t *next = addr_chain ? &x->anext : &x->hnext, *prev = addr_chain ? &x->aprev : &x->hprev;
  *next = *head;
  *prev = PT_NONE;
  if (*head != PT_NONE) {
    if (addr_chain) t->node[*head].aprev = n;
    else t->node[*head].hprev = n;
  }
  *head = n;
}

static void chain_remove(struct pattern_tree *t, uint32_t *head, uint32_t n, int addr_chain) {
  struct pt_node *x = &t->node[n];
  uint32_t next = addr_chain ? x->anext : x->hnext, prev = addr_chain ? x->aprev : x->hprev;
  if (prev == PT_NONE) *head = next;
  else if (addr_chain) t->node[prev].anext = next;
  else t->node[prev].hnext = next;
  if (next != PT_NONE) {
    if (addr_chain) t->node[next].aprev = prev;
    else t->node[next].hprev = prev;
  }
}

static uint32_t node_new(struct pattern_tree *t, uint32_t addr, uint32_t parent) {
  uint32_t n = t->free_head;
  struct pt_node *x = &t->node[n];
  t->free_head = x->sibling;
  x->addr = addr;
  x->parent = parent;
  x->child = x->sibling = x->best = PT_NONE;
  x->follows = 1;
  chain_insert(t, &t->addr_hash[addr_key(t, addr)], n, 1);
  if (parent != PT_NONE) chain_insert(t, &t->child_hash[child_key(t, parent, addr)], n, 0);
  if (++t->used > t->used_max) t->used_max = t->used;
  return n;
}

static void node_free(struct pattern_tree *t, uint32_t n, int was_leaf) {
  struct pt_node *x = &t->node[n];
  chain_remove(t, &t->addr_hash[addr_key(t, x->addr)], n, 1);
  if (x->parent != PT_NONE) chain_remove(t, &t->child_hash[child_key(t, x->parent, x->addr)], n, 0);
  if (n == t->cursor) t->cursor = PT_NONE;
  if (was_leaf) t->leaves--;
  x->level = PT_NONE;
  x->parent = PT_NONE;
  x->sibling = t->free_head;
  t->free_head = n;
  t->used--;
  t->dropped_nodes++;
}

/* Frees the subtree under top (top included), without a stack: down to a leaf, free it, go
 * on with its sibling or, when a node's children are all gone, free the node. */
static void subtree_free(struct pattern_tree *t, uint32_t top) {
  uint32_t x = top;
  for (;;) {
    while (t->node[x].child != PT_NONE) x = t->node[x].child;
    int leaf = 1;
    for (;;) {
      uint32_t p = t->node[x].parent, s = t->node[x].sibling;
      node_free(t, x, leaf);
      if (x == top) return;
      if (s != PT_NONE) {
        x = s;
        break;
      }
      x = p;
      t->node[x].child = PT_NONE;
      leaf = 0;
    }
  }
}

/* An address found no place: the root and every branch but the longest go; the longest
 * remaining branch is the main pattern now. */
static void drop_root(struct pattern_tree *t) {
  uint32_t r = t->root, keep = t->node[r].child;
  if (keep != PT_NONE && t->node[keep].sibling != PT_NONE)   /* several: the deepest's */
    for (keep = t->deepest; t->node[keep].parent != r;) keep = t->node[keep].parent;
  t->drops++;
  for (uint32_t c = t->node[r].child; c != PT_NONE;) {
    uint32_t next = t->node[c].sibling;
    if (c != keep) subtree_free(t, c);
    c = next;
  }
  if (keep != PT_NONE) {
    /* The kept branch leaves the root's child index; the root is then a leaf (no leaf lost). */
    chain_remove(t, &t->child_hash[child_key(t, r, t->node[keep].addr)], keep, 0);
    t->node[keep].parent = PT_NONE;
    t->node[keep].sibling = PT_NONE;
    t->node[r].child = PT_NONE;
    node_free(t, r, 0);
    t->root = keep;
  } else {
    node_free(t, r, 1);
    t->root = PT_NONE;
  }
  /* The deepest node is on the kept branch: it stays the deepest. */
  if (t->cursor == PT_NONE) t->cursor = t->root;
}

/* The pattern at c may grow (a node aside): above depth n, and c a leaf or fewer than m
 * branches. */
static int may_grow(const struct pattern_tree *t, uint32_t c) {
  return c != PT_NONE && pt_depth_of(t, c) < t->depth &&
         (t->node[c].child == PT_NONE || t->leaves < t->branches);
}

static uint32_t add_child(struct pattern_tree *t, uint32_t c, uint32_t addr) {
  struct pt_node *p = &t->node[c];
  if (p->child != PT_NONE) t->leaves++;   /* a new branch; extending a leaf adds none */
  uint32_t n = node_new(t, addr, c);
  t->node[n].level = p->level + 1u;
  t->node[n].sibling = p->child;
  p->child = n;
  if (p->best == PT_NONE) p->best = n;
  if (t->node[n].level > t->node[t->deepest].level) t->deepest = n;
  t->extends++;
  return n;
}

/* The shallowest node holding addr (among the first ADDR_WALK_LIMIT of them), PT_NONE. */
static uint32_t find_shallowest(const struct pattern_tree *t, uint32_t addr) {
  uint32_t best = PT_NONE, seen = 0;
  for (uint32_t n = t->addr_hash[addr_key(t, addr)]; n != PT_NONE && seen < ADDR_WALK_LIMIT;
       n = t->node[n].anext) {
    if (t->node[n].addr != addr) continue;
    seen++;
    if (best == PT_NONE || t->node[n].level < t->node[best].level) best = n;
  }
  return best;
}

void pt_note(struct pattern_tree *t, uint32_t addr, uint32_t len) {
  t->notes++;
  t->seq_count = addr == t->last_end ? t->seq_count + 1u : 0u;
  t->last_end = addr + len;
  t->last_len = len;
  if (t->nnodes == 0) return;
  if (t->root == PT_NONE) {
    t->root = t->cursor = t->deepest = node_new(t, addr, PT_NONE);
    t->node[t->root].level = 0;
    t->leaves = 1;
    return;
  }
  uint32_t c = t->cursor;
  if (c != PT_NONE) {
    uint32_t ch = pt_child(t, c, addr);
    if (ch != PT_NONE) {   /* the input follows a known branch */
      struct pt_node *p = &t->node[c];
      t->node[ch].follows++;
      if (p->best != ch && t->node[ch].follows > t->node[p->best].follows) p->best = ch;
      t->cursor = ch;
      t->follows++;
      return;
    }
  }
  for (;;) {
    if (may_grow(t, t->cursor)) {
      if (t->free_head != PT_NONE) {
        t->cursor = add_child(t, t->cursor, addr);
        return;
      }
      drop_root(t);                  /* the budget is spent: the oldest address makes room */
    } else {
      uint32_t n = find_shallowest(t, addr);
      if (n != PT_NONE) {
        t->cursor = n;
        t->reentries++;
        return;
      }
      drop_root(t);
    }
    if (t->root == PT_NONE) {
      t->root = t->cursor = t->deepest = node_new(t, addr, PT_NONE);
      t->node[t->root].level = 0;
      t->leaves = 1;
      return;
    }
  }
}

int pt_predict(const struct pattern_tree *t, uint32_t *addr, uint32_t *len, int *sequential) {
  if (t->notes == 0) return 0;
  *len = t->last_len;
  if (t->sequential_run && t->seq_count >= t->sequential_run) {
    *addr = t->last_end;
    *sequential = 1;
    return 1;
  }
  *sequential = 0;
  if (t->cursor == PT_NONE) return 0;
  uint32_t b = t->node[t->cursor].best;
  if (b == PT_NONE || t->node[b].follows < t->min_repeats) return 0;
  *addr = t->node[b].addr;
  return 1;
}
