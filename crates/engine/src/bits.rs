//! Small helpers for `u128` bitboards (every board here has at most 128 cells).

/// Iterates over the set bits of a `u128`, lowest first, as cell indices.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u128);

impl Iterator for Bits {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

/// The bit of one cell.
#[inline]
pub const fn bit(cell: u8) -> u128 {
    1u128 << cell
}

/// Slots of a [`SetCache`] (a power of two).
pub const SET_CACHE_SLOTS: usize = 1024;

/// A direct-mapped cache of a pure function of a piece set, for a
/// `thread_local!` (no locking; each thread keeps its own): each slot holds
/// a set and its value, a set's slot is a hash of it, and a set that
/// shares its slot with another replaces it. `u128::MAX` marks an empty
/// slot, so a cached function must never be asked about that set (every
/// board here has fewer than 128 cells).
///
/// The search values every child of a node it expands, and a move changes
/// the pieces of one player only: what reads one player's pieces alone
/// repeats for the others in every child. A cache changes no value, only
/// how often it is worked out (docs/performance.md, "The three-player
/// search's scores cached").
pub type SetCache<V> = [std::cell::Cell<(u128, V)>; SET_CACHE_SLOTS];

/// `work(set)` through `cache` (see [`SetCache`]).
#[inline]
pub fn cached<V: Copy>(cache: &SetCache<V>, set: u128, work: impl FnOnce(u128) -> V) -> V {
    debug_assert!(set != u128::MAX, "u128::MAX marks an empty slot");
    let folded = (set as u64) ^ ((set >> 64) as u64).rotate_left(29);
    let slot = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SET_CACHE_SLOTS.trailing_zeros())) as usize;
    let (key, value) = cache[slot].get();
    if key == set {
        return value;
    }
    let value = work(set);
    cache[slot].set((set, value));
    value
}

/// Splits `set` into its connected components under `neighbors` (a table of
/// neighbour masks per cell), returning each component as a mask, in order
/// of their lowest cell.
pub fn components(set: u128, neighbors: &[u128]) -> Vec<u128> {
    // Room for a dozen groups at once (a flood of pieces rarely splits
    // into more): growing the `Vec` from empty cost more than the floods.
    let mut out = Vec::with_capacity((set.count_ones() as usize).min(12));
    let mut rest = set;
    while rest != 0 {
        let seed = rest & rest.wrapping_neg();
        let group = flood(seed, set, neighbors);
        out.push(group);
        rest &= !group;
    }
    out
}

/// [`components`] into `out`, without allocating: their number, or `None`
/// (`out` then partly written) when there are more than `out` holds.
pub fn components_in(set: u128, neighbors: &[u128], out: &mut [u128]) -> Option<usize> {
    let mut n = 0;
    let mut rest = set;
    while rest != 0 {
        let group = flood(rest & rest.wrapping_neg(), set, neighbors);
        *out.get_mut(n)? = group;
        n += 1;
        rest &= !group;
    }
    Some(n)
}

/// How many connected components `set` has ([`components`]' length,
/// without the list).
pub fn component_count(set: u128, neighbors: &[u128]) -> usize {
    let mut n = 0;
    let mut rest = set;
    while rest != 0 {
        rest &= !flood(rest & rest.wrapping_neg(), set, neighbors);
        n += 1;
    }
    n
}

/// The cells next to any cell of `set` (`set`'s own cells included where
/// they neighbour each other): the union of their `neighbors`.
pub fn neighbours(set: u128, neighbors: &[u128]) -> u128 {
    // The set's two halves as `u64`s: cheaper to walk than the `u128`
    // (issue #25: every flood's frontier, every evaluation).
    let mut next = 0u128;
    let (mut lo, mut hi) = (set as u64, (set >> 64) as u64);
    while lo != 0 {
        next |= neighbors[lo.trailing_zeros() as usize];
        lo &= lo - 1;
    }
    while hi != 0 {
        next |= neighbors[64 + hi.trailing_zeros() as usize];
        hi &= hi - 1;
    }
    next
}

/// The component of `set` containing the cells of `seed`.
pub fn flood(seed: u128, set: u128, neighbors: &[u128]) -> u128 {
    let mut group = seed & set;
    let mut frontier = group;
    while frontier != 0 {
        let next = neighbours(frontier, neighbors) & set & !group;
        group |= next;
        frontier = next;
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set's value from the cache is the value worked out for that set,
    /// never that of another set sharing its slot: three times as many
    /// sets as slots (so slots are shared, replaced and refilled), each
    /// asked twice, in two orders.
    #[test]
    fn a_set_cache_hands_back_each_sets_own_value() {
        thread_local! {
            static CACHE: SetCache<u64> = const { [const { std::cell::Cell::new((u128::MAX, 0)) }; SET_CACHE_SLOTS] };
        }
        let value = |s: u128| (s as u64).wrapping_mul(7) ^ (s >> 64) as u64;
        let sets: Vec<u128> =
            (1..3 * SET_CACHE_SLOTS as u128).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i << 90)).collect();
        let mut worked = 0;
        for pass in 0..2 {
            for k in 0..sets.len() {
                let s = if pass == 0 { sets[k] } else { sets[sets.len() - 1 - k] };
                let got = CACHE.with(|c| {
                    cached(c, s, |s| {
                        worked += 1;
                        value(s)
                    })
                });
                assert_eq!(got, value(s), "{s:#x}");
                // Asked again at once: from the cache.
                assert_eq!(CACHE.with(|c| cached(c, s, |_| unreachable!("a set just cached"))), value(s));
            }
        }
        assert!(worked < 2 * sets.len(), "some sets came from the cache: {worked}");
    }

    #[test]
    fn bits_iterates_in_order() {
        let v: Vec<u8> = Bits(bit(0) | bit(5) | bit(127)).collect();
        assert_eq!(v, vec![0, 5, 127]);
    }

    #[test]
    fn components_of_a_line_split_by_a_gap() {
        // cells 0..10 in a line; neighbours are i-1 and i+1
        let nb: Vec<u128> = (0..10u8)
            .map(|i| {
                let mut m = 0;
                if i > 0 {
                    m |= bit(i - 1);
                }
                if i < 9 {
                    m |= bit(i + 1);
                }
                m
            })
            .collect();
        let set = bit(0) | bit(1) | bit(2) | bit(4) | bit(5) | bit(9);
        assert_eq!(components(set, &nb), vec![0b111, bit(4) | bit(5), bit(9)]);
    }

    #[test]
    fn neighbours_is_the_union_of_the_cells_neighbours() {
        // A ring of 128 cells, each next to the cells either side.
        let ring: Vec<u128> = (0..128u32).map(|c| bit(((c + 1) % 128) as u8) | bit(((c + 127) % 128) as u8)).collect();
        for set in [0u128, 1, 1 << 63 | 1 << 64, u128::MAX, 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210] {
            let want = Bits(set).fold(0u128, |m, c| m | ring[c as usize]);
            assert_eq!(neighbours(set, &ring), want, "{set:#x}");
        }
    }
}
