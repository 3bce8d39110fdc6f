//! Scala endgame tables: every position of a few stones, solved.
//!
//! After any legal move in either ruleset the stones left form one group
//! that holds both colours, so the positions of `n` stones are the
//! connected sets of `n` cells (8-connectivity, the hole cutting), each
//! coloured with both colours, with a side to move. The tables hold those
//! where the smaller colour has one stone (up to [`STONES`] in all) or two
//! (up to [`PAIRS`]); for each, its value under perfect play: a win or a
//! loss for the side to move and in how many plies, or a draw (neither
//! side can force a win: the game goes on for ever). docs/ai.md, "Scala
//! endgame tables".
//!
//! The tables are built by retrograde analysis, a layer of `n` stones at a
//! time (a move never adds a stone, so a capture leads into a smaller
//! layer, already solved): one forward pass generates every position's
//! moves, valuing the finished games and the captures at once and counting
//! the moves that stay in the layer; then the decided positions are taken
//! in order of their distance and their predecessors in the layer found by
//! un-moving a stone (steps and jump sequences are their own reverse).

use super::board::NEIGHBORS;
use super::moves::destinations;
use super::{other, Position, Scala, Variant, FIRST_CELL};
use crate::bits::{bit, flood, Bits};
use crate::game::{Game, Outcome, Player, Solved};
use crate::store::{fnv1a, TableStore, FNV_START};
use std::sync::{LazyLock, OnceLock};

/// Slot states while building, and in the finished table.
const DRAW: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
/// A draw at distance 0: while building, not decided yet (every decided
/// position has a distance of at least one ply).
const UNDECIDED: u16 = DRAW as u16;
/// Not a position of the table: one colour missing, or the game is over.
const OFF: u8 = 3;

/// The connected sets of exactly `n` cells, ascending (Redelmeier's
/// enumeration: each set once, from its lowest cell).
pub fn connected_sets(n: usize) -> Vec<u128> {
    fn grow(cur: u128, size: usize, mut untried: u128, forbidden: u128, n: usize, out: &mut Vec<u128>) {
        if size == n {
            out.push(cur);
            return;
        }
        let mut forbidden = forbidden;
        while untried != 0 {
            let v = untried.trailing_zeros() as usize;
            untried &= untried - 1;
            let fresh = NEIGHBORS[v] & !forbidden;
            grow(cur | 1 << v, size + 1, untried | fresh, forbidden | fresh, n, out);
            forbidden |= 1 << v;
        }
    }
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    for (root, &around) in NEIGHBORS.iter().enumerate() {
        let below = (1u128 << (root + 1)) - 1;
        let untried = around & !below;
        grow(1 << root, 1, untried, below | untried, n, &mut out);
    }
    out.sort_unstable();
    out
}

/// The connected sets of `n` cells ([`connected_sets`]), enumerated once
/// for both rulesets (the seven- and eight-stone ones hold 40 MB).
fn shared_sets(n: usize) -> &'static [u128] {
    static SETS: [OnceLock<Vec<u128>>; STONES + 1] = [const { OnceLock::new() }; STONES + 1];
    SETS[n].get_or_init(|| connected_sets(n))
}

/// One layer: the positions of `n` stones.
struct Layer {
    n: usize,
    sets: &'static [u128],
    /// Per slot: the state in the low two bits, the distance (at most 63
    /// plies; the longest found is 33) above them.
    value: Vec<u8>,
}

impl Layer {
    /// Where the smaller colour's stones may stand in a set: one stone
    /// (`n` places), or, up to [`PAIRS`] stones, two (`n(n-1)/2` pairs).
    fn choices(&self) -> usize {
        if self.n >= 4 && self.n <= PAIRS {
            self.n + self.n * (self.n - 1) / 2
        } else {
            self.n
        }
    }

    /// A set, the smaller colour's place in it, that colour, the side to move.
    fn slots(&self) -> usize {
        self.sets.len() * self.choices() * 4
    }

    /// The slot of a position of the tables (one group of `n` stones, the
    /// smaller colour one stone, or two with at most [`PAIRS`] stones);
    /// `None` otherwise.
    fn slot(&self, stones: [u128; 2], to_move: Player) -> Option<usize> {
        // The smaller colour; white when both have as many.
        let minor = (stones[1].count_ones() < stones[0].count_ones()) as usize;
        let set = stones[0] | stones[1];
        let rank = self.sets.binary_search(&set).ok()?;
        let m = stones[minor];
        let place = match m.count_ones() {
            1 => (set & (m - 1)).count_ones() as usize,
            2 if self.n <= PAIRS => {
                let i = (set & (m & m.wrapping_neg()).wrapping_sub(1)).count_ones() as usize;
                let j = (set & ((1u128 << (127 - m.leading_zeros())) - 1)).count_ones() as usize;
                self.n + j * (j - 1) / 2 + i
            }
            _ => return None,
        };
        Some((((rank * self.choices() + place) << 1 | minor) << 1) | to_move as usize)
    }

    fn position(&self, slot: usize) -> Option<Position> {
        let to_move = (slot & 1) as Player;
        let minor = (slot >> 1) & 1;
        let place = (slot >> 2) % self.choices();
        let set = self.sets[(slot >> 2) / self.choices()];
        let cell = |k: usize| bit(Bits(set).nth(k).expect("a member of the set"));
        let m = if place < self.n {
            cell(place)
        } else {
            let p = place - self.n;
            let mut j = 1;
            while (j + 1) * j / 2 <= p {
                j += 1;
            }
            cell(p - j * (j - 1) / 2) | cell(j)
        };
        let k = m.count_ones() as usize;
        // The smaller colour as `slot` files it: white when both have as many.
        if self.n - k < k || (self.n - k == k && minor == 1) {
            return None;
        }
        let mut stones = [0u128; 2];
        stones[minor] = m;
        stones[1 - minor] = set & !m;
        // No move puts a stone on its own first cell (the notation refuses
        // it too), and un-moving could not reach such a position.
        if stones[0] & bit(FIRST_CELL[0]) != 0 || stones[1] & bit(FIRST_CELL[1]) != 0 {
            return None;
        }
        Some(Position { stones, to_move, loser: None })
    }

    fn solved(&self, slot: usize) -> Option<Solved> {
        let v = self.value[slot];
        let d = v >> 2;
        match v & 3 {
            WIN => Some(Solved::Win(d)),
            LOSS => Some(Solved::Loss(d)),
            DRAW => Some(Solved::Draw),
            _ => None,
        }
    }
}

/// The tables of one ruleset, each layer built on first use (with the
/// smaller ones it needs).
pub struct Tables {
    game: Scala,
    layers: [OnceLock<Layer>; STONES - 1],
}

impl Tables {
    pub fn new(variant: Variant) -> Tables {
        Tables { game: Scala::new(variant), layers: Default::default() }
    }

    /// The layer of `n` stones (2 to [`STONES`]), solved.
    fn layer(&self, n: usize) -> Option<&Layer> {
        let cell = self.layers.get(n.checked_sub(2)?)?;
        if let Some(layer) = cell.get() {
            return Some(layer);
        }
        self.prepare_to(n, &crate::store::NoStore);
        cell.get()
    }

    /// Builds every layer now, or loads it from `store`; a layer built is
    /// saved there. Idempotent.
    pub fn prepare(&self, store: &dyn TableStore) {
        self.prepare_to(STONES, store);
    }

    /// [`Tables::prepare`] up to the layer of `most` stones.
    fn prepare_to(&self, most: usize, store: &dyn TableStore) {
        for n in 2..=most.min(STONES) {
            self.layers[n - 2].get_or_init(|| {
                let name = self.image_name(n);
                if let Some(image) = store.load(&name) {
                    match self.install(n, image) {
                        Ok(layer) => return layer,
                        Err(why) => store.rejected(&name, &why),
                    }
                }
                let layer = self.solve_layer(&self.game, n);
                if store.keeps() {
                    store.save(&name, &self.image(&layer));
                }
                layer
            });
        }
    }

    /// The name of the layer of `n` stones in a [`TableStore`]: the game,
    /// the ruleset, the stones and the image format, so that another
    /// build's layers are never mistaken for this one's.
    pub fn image_name(&self, n: usize) -> String {
        format!("scala-{}-{n}-v{IMAGE_FORMAT}.table", self.game.variant().name())
    }

    /// The header of a layer's image: what it holds and its checksums
    /// (little-endian; [`IMAGE_HEADER`] bytes).
    fn header(&self, n: usize, sets: &[u128], value: &[u8]) -> [u8; IMAGE_HEADER] {
        let mut h = [0u8; IMAGE_HEADER];
        h[..8].copy_from_slice(&IMAGE_MAGIC);
        h[8..12].copy_from_slice(&IMAGE_FORMAT.to_le_bytes());
        h[12] = self.game.variant() as u8;
        h[13] = n as u8;
        h[14] = PAIRS as u8;
        h[15] = STONES as u8;
        h[16..24].copy_from_slice(&(sets.len() as u64).to_le_bytes());
        h[24..32].copy_from_slice(&(value.len() as u64).to_le_bytes());
        let sets_sum = sets.iter().fold(FNV_START, |h, s| fnv1a(h, &s.to_le_bytes()));
        h[32..40].copy_from_slice(&sets_sum.to_le_bytes());
        h[40..48].copy_from_slice(&fnv1a(FNV_START, value).to_le_bytes());
        h
    }

    /// A layer's image: its header, then one byte a slot.
    fn image(&self, layer: &Layer) -> Vec<u8> {
        let mut image = Vec::with_capacity(IMAGE_HEADER + layer.value.len());
        image.extend_from_slice(&self.header(layer.n, layer.sets, &layer.value));
        image.extend_from_slice(&layer.value);
        image
    }

    /// The layer of `n` stones from its image, or why the image is not one
    /// this build can use.
    fn install(&self, n: usize, mut image: Vec<u8>) -> Result<Layer, String> {
        if image.len() < IMAGE_HEADER {
            return Err(format!("{} bytes: shorter than the {IMAGE_HEADER}-byte header", image.len()));
        }
        let h = &image[..IMAGE_HEADER];
        if h[..8] != IMAGE_MAGIC {
            return Err("not a parlour table image (its first bytes)".into());
        }
        let format = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
        if format != IMAGE_FORMAT {
            return Err(format!("image format {format}; this build reads {IMAGE_FORMAT}"));
        }
        let variant = self.game.variant();
        if (h[12], h[13], h[14], h[15]) != (variant as u8, n as u8, PAIRS as u8, STONES as u8) {
            let held = Variant::ALL.get(h[12] as usize).map_or("an unknown ruleset", |v| v.name());
            return Err(format!(
                "holds {held} with {} stones (pairs to {}, a lone stone to {}); this layer is {} with {n} stones (pairs to {PAIRS}, a lone stone to {STONES})",
                h[13],
                h[14],
                h[15],
                variant.name()
            ));
        }
        let mut layer = Layer { n, sets: shared_sets(n), value: Vec::new() };
        let slots = layer.slots();
        if image.len() != IMAGE_HEADER + slots {
            return Err(format!("{} bytes; a layer of {n} stones is {} bytes", image.len(), IMAGE_HEADER + slots));
        }
        let value = &image[IMAGE_HEADER..];
        let expected = self.header(n, layer.sets, value);
        if image[16..32] != expected[16..32] || image[32..40] != expected[32..40] {
            return Err(format!(
                "made from other sets of {n} cells than this build's (the board or their order changed)"
            ));
        }
        if image[40..48] != expected[40..48] {
            return Err("damaged: its values do not match their checksum".into());
        }
        image.drain(..IMAGE_HEADER);
        layer.value = image;
        Ok(layer)
    }

    /// Whether every layer is built.
    pub fn ready(&self) -> bool {
        self.layers.iter().all(|l| l.get().is_some())
    }

    /// The value of a position still being played (the caller checks the
    /// outcome first) that the tables hold ([`holds`]), all in one group.
    /// `None` for any other.
    pub fn probe(&self, pos: &Position) -> Option<Solved> {
        if pos.loser.is_some() || !holds(pos.stones) {
            return None;
        }
        let n = pos.occupied().count_ones() as usize;
        let layer = self.layer(n)?;
        layer.solved(layer.slot(pos.stones, pos.to_move)?)
    }

    fn solve_layer(&self, game: &Scala, n: usize) -> Layer {
        let mut layer = Layer { n, sets: shared_sets(n), value: Vec::new() };
        let slots = layer.slots();
        // Per slot: the moves not yet known to lose (in the layer, or to a
        // draw), and the longest known loss among the rest.
        // Per slot: the moves not yet known to lose (in the layer, or to a
        // draw), and the longest known loss among the rest. The forward
        // pass is split over the cores.
        let mut open = vec![0u8; slots];
        let mut longest = vec![0u8; slots];
        let mut state = vec![OFF as u16; slots];
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
        let chunk = slots.div_ceil(threads).max(1);
        let starts: Vec<Vec<(u32, u8, u8)>> = std::thread::scope(|scope| {
            let layer = &layer;
            let handles: Vec<_> = open
                .chunks_mut(chunk)
                .zip(longest.chunks_mut(chunk))
                .zip(state.chunks_mut(chunk))
                .enumerate()
                .map(|(k, ((open, longest), state))| {
                    scope.spawn(move || self.forward(game, layer, k * chunk, open, longest, state))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a table thread")).collect()
        });
        let mut buckets: Vec<Vec<(u32, u8)>> = vec![Vec::new(); 256];
        for (slot, class, d) in starts.into_iter().flatten() {
            buckets[d as usize].push((slot, class));
        }
        let mut d = 0usize;
        while d < buckets.len() {
            let bucket = std::mem::take(&mut buckets[d]);
            for (slot, class) in bucket {
                let slot = slot as usize;
                if state[slot] != UNDECIDED {
                    continue; // decided already, at a distance no larger
                }
                state[slot] = class as u16 | (d as u16) << 2;
                let pos = layer.position(slot).expect("a decided slot is a position");
                layer.unmoves(&pos, &state, |pred, state| {
                    if state[pred] != UNDECIDED {
                        return;
                    }
                    if class == LOSS {
                        if d + 1 < buckets.len() {
                            buckets[d + 1].push((pred as u32, WIN));
                        }
                    } else if open[pred] != 255 {
                        open[pred] -= 1;
                        longest[pred] = longest[pred].max(d as u8);
                        if open[pred] == 0 && (longest[pred] as usize) + 1 < buckets.len() {
                            buckets[longest[pred] as usize + 1].push((pred as u32, LOSS));
                        }
                    }
                });
            }
            d += 1;
        }
        // Distances of 64 plies or more would be kept as 63 (none is: the
        // longest found is 33).
        layer.value = state
            .iter()
            .map(|&v| if v & 3 == OFF as u16 { OFF } else { (v & 3) as u8 | ((v >> 2).min(63) as u8) << 2 })
            .collect();
        layer
    }
}

/// The most stones the tables hold: every position of a lone stone
/// against at most seven.
pub const STONES: usize = 8;

/// The version of the stored layers: raise it whenever the rules, the
/// order of the slots or the encoding of a value change, so that images
/// made by another build are rejected and built again.
const IMAGE_FORMAT: u32 = 1;

/// The first bytes of a layer's image.
const IMAGE_MAGIC: [u8; 8] = *b"parlourT";

/// The bytes of a layer's header ([`Tables::header`]).
const IMAGE_HEADER: usize = 48;

/// The most stones of the positions where the smaller colour has two.
pub const PAIRS: usize = 7;

/// Whether the tables hold positions with these stones (one group
/// assumed): the smaller colour one stone, up to [`STONES`] in all, or two,
/// up to [`PAIRS`].
pub fn holds(stones: [u128; 2]) -> bool {
    let n = (stones[0] | stones[1]).count_ones() as usize;
    let minor = stones[0].count_ones().min(stones[1].count_ones());
    (minor == 1 && n <= STONES) || (minor == 2 && n <= PAIRS)
}

static TABLES: [LazyLock<Tables>; 2] =
    [LazyLock::new(|| Tables::new(Variant::Original)), LazyLock::new(|| Tables::new(Variant::Zillions))];

/// The tables of `variant`, each layer built on first use or by
/// [`Tables::prepare`] (all of them take minutes of CPU and about 120 MB a
/// ruleset, with 40 MB of cell sets shared by both: docs/ai.md, "Scala
/// endgame tables"; up to five stones, under a second).
pub fn tables(variant: Variant) -> &'static Tables {
    &TABLES[variant as usize]
}

impl Tables {
    /// The forward pass over the slots from `first` on (as many as `open`
    /// holds): each position's moves valued where they leave the layer or
    /// end the game, the others counted. Returns the positions decided so
    /// far, each with its class and distance.
    fn forward(
        &self,
        game: &Scala,
        layer: &Layer,
        first: usize,
        open: &mut [u8],
        longest: &mut [u8],
        state: &mut [u16],
    ) -> Vec<(u32, u8, u8)> {
        let n = layer.n;
        let mut decided = Vec::new();
        let mut moves = Vec::new();
        for k in 0..open.len() {
            let slot = first + k;
            let Some(pos) = layer.position(slot) else { continue };
            if game.outcome(&pos).is_over() {
                continue;
            }
            state[k] = UNDECIDED;
            let me = pos.to_move;
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            let mut best_win: Option<u8> = None;
            let mut count = 0u32;
            for &mv in &moves {
                let mut child = pos;
                game.play(&mut child, mv);
                match game.outcome(&child) {
                    Outcome::Won(w) => {
                        if w.contains(&me) {
                            best_win = Some(1);
                        }
                        // Else a move that loses at once: a win in 0 for the other.
                        continue;
                    }
                    Outcome::Drawn => {
                        count += 1;
                        continue;
                    }
                    Outcome::Ongoing => {}
                }
                if child.occupied().count_ones() as usize == n {
                    count += 1;
                    continue;
                }
                match self.probe(&child) {
                    Some(Solved::Loss(d)) => {
                        let d = d.saturating_add(1);
                        best_win = Some(best_win.map_or(d, |b| b.min(d)));
                    }
                    Some(Solved::Win(d)) => longest[k] = longest[k].max(d),
                    // A draw, or (never, by the rules) a child off the tables.
                    _ => count += 1,
                }
            }
            // More than 254 open moves never happen with a few stones; 255
            // is never counted down (a draw at worst).
            open[k] = count.min(255) as u8;
            if let Some(d) = best_win {
                decided.push((slot as u32, WIN, d));
            } else if count == 0 {
                decided.push((slot as u32, LOSS, longest[k].saturating_add(1)));
            }
        }
        decided
    }
}

impl Layer {
    /// Calls `each` with the slot of every position of this layer from
    /// which a move that captures nothing leads to `pos`.
    fn unmoves(&self, pos: &Position, state: &[u16], mut each: impl FnMut(usize, &[u16])) {
        let mover = other(pos.to_move);
        let m = mover as usize;
        let all = pos.occupied();
        let forbidden = bit(FIRST_CELL[m]);
        for to in Bits(pos.stones[m]) {
            if to == FIRST_CELL[m] {
                continue;
            }
            let (steps, jumps) = destinations(all, to, forbidden);
            for from in Bits(steps | jumps) {
                let mut stones = pos.stones;
                stones[m] = stones[m] & !bit(to) | bit(from);
                let set = stones[0] | stones[1];
                if flood(bit(from), set, &NEIGHBORS) != set {
                    continue;
                }
                if let Some(slot) = self.slot(stones, mover) {
                    if state[slot] & 3 != OFF as u16 {
                        each(slot, state);
                    }
                }
            }
        }
    }
}

/// The layer the ignored table tests look at: `PARLOUR_TABLE_STONES`, or
/// `default`.
#[cfg(test)]
fn stones_from_env(default: usize) -> usize {
    std::env::var("PARLOUR_TABLE_STONES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scala::Move;

    /// Every solved value agrees with its children's: a win in `d` has a
    /// move to a loss in `d - 1` (or a finished win when `d` is 1) and none
    /// shorter; a loss in `d` has every move to a win, the longest in
    /// `d - 1`; a draw has no move to a loss and one to a draw.
    fn check(game: &Scala, tables: &Tables, layer: &Layer, every: usize) -> usize {
        let mut checked = 0;
        let mut moves = Vec::new();
        for slot in (0..layer.slots()).step_by(every) {
            let Some(pos) = layer.position(slot) else { continue };
            if game.outcome(&pos).is_over() {
                assert_eq!(layer.solved(slot), None);
                continue;
            }
            let me = pos.to_move;
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            let (mut fastest_win, mut longest_loss, mut draw) = (None::<u8>, 0u8, false);
            for &mv in &moves {
                let mut child = pos;
                game.play(&mut child, mv);
                let v = match game.outcome(&child) {
                    Outcome::Won(w) if w.contains(&me) => Solved::Loss(0),
                    Outcome::Won(_) => Solved::Win(0),
                    _ => tables
                        .probe(&child)
                        .or_else(|| layer.solved(layer.slot(child.stones, child.to_move)?))
                        .expect("child solved"),
                };
                match v {
                    Solved::Loss(d) => fastest_win = Some(fastest_win.map_or(d + 1, |b| b.min(d + 1))),
                    Solved::Win(d) => longest_loss = longest_loss.max(d + 1),
                    Solved::Draw => draw = true,
                }
            }
            let want = match (fastest_win, draw) {
                (Some(d), _) => Solved::Win(d),
                (None, true) => Solved::Draw,
                (None, false) => Solved::Loss(longest_loss),
            };
            assert_eq!(layer.solved(slot), Some(want), "{pos:?}");
            checked += 1;
        }
        checked
    }

    /// The same sets grown another way: every connected set of `n` cells
    /// is one of `n - 1` cells plus a neighbour.
    #[test]
    fn connected_sets_are_every_group_once() {
        let mut grown: std::collections::BTreeSet<u128> = (0..super::super::board::CELLS).map(|c| 1u128 << c).collect();
        for n in 1..=4 {
            let sets = connected_sets(n);
            assert_eq!(sets, grown.iter().copied().collect::<Vec<_>>(), "{n} cells");
            let mut next = std::collections::BTreeSet::new();
            for &set in &grown {
                let around = Bits(set).fold(0u128, |a, c| a | NEIGHBORS[c as usize]) & !set;
                next.extend(Bits(around).map(|c| set | bit(c)));
            }
            grown = next;
        }
    }

    /// Up to five stones every slot (a third of the five-stone ones) is
    /// checked against its moves; by induction on the distance, a table
    /// that agrees with its moves everywhere is exact.
    #[test]
    fn the_tables_to_five_stones_agree_with_the_moves() {
        for variant in Variant::ALL {
            let game = Scala::new(variant);
            let tables = Tables::new(variant);
            for n in 2..=5 {
                let layer = tables.layer(n).unwrap();
                let checked = check(&game, &tables, layer, if n < 5 { 1 } else { 3 });
                assert!(checked > layer.slots() / 8, "{n} stones: {checked} checked");
            }
        }
    }

    /// Layers saved to a store load back slot for slot, without building;
    /// an image that is damaged, cut short, of the other ruleset or of
    /// another format is rejected with the reason, built again and
    /// replaced, so that the next start loads it.
    #[test]
    fn stored_layers_load_as_built_and_bad_ones_are_built_again() {
        use crate::store::MemoryStore;
        let values = |t: &Tables| (2..=5).map(|n| t.layers[n - 2].get().unwrap().value.clone()).collect::<Vec<_>>();
        let store = MemoryStore::default();
        let built = Tables::new(Variant::Original);
        built.prepare_to(5, &store);
        let mut names: Vec<String> = store.images.lock().unwrap().keys().cloned().collect();
        names.sort();
        assert_eq!(names, (2..=5).map(|n| format!("scala-original-{n}-v{IMAGE_FORMAT}.table")).collect::<Vec<_>>());
        assert!(built.layers[4].get().is_none(), "only the layers asked for are built");

        // Loaded, not built: a store that rejects nothing and is not
        // written to gives back the same values.
        let loaded = Tables::new(Variant::Original);
        let saved_before = store.images.lock().unwrap().clone();
        loaded.prepare_to(5, &store);
        assert!(store.rejections.lock().unwrap().is_empty());
        assert_eq!(store.saved.lock().unwrap().len(), 4, "nothing built, nothing saved again");
        assert_eq!(values(&loaded), values(&built));
        let pos = read(Variant::Original, "to_move=black; white=j7; black=f2,g3,h4,i5");
        assert_eq!(loaded.probe(&pos), built.probe(&pos));

        // Four ways to spoil an image.
        let zillions = Tables::new(Variant::Zillions);
        zillions.prepare_to(3, &crate::store::NoStore);
        {
            let mut images = store.images.lock().unwrap();
            let name = |n: usize| format!("scala-original-{n}-v{IMAGE_FORMAT}.table");
            images.get_mut(&name(5)).unwrap()[IMAGE_HEADER + 1000] ^= 0x10;
            images.get_mut(&name(4)).unwrap().truncate(IMAGE_HEADER + 10);
            images.insert(name(3), zillions.image(zillions.layers[1].get().unwrap()));
            images.get_mut(&name(2)).unwrap()[8] = 99;
        }
        let again = Tables::new(Variant::Original);
        again.prepare_to(5, &store);
        let mut why = store.rejections.lock().unwrap().clone();
        why.sort();
        assert_eq!(why.len(), 4, "{why:?}");
        assert!(why[0].0.contains("-2-") && why[0].1.contains("image format 99"), "{why:?}");
        assert!(why[1].0.contains("-3-") && why[1].1.contains("holds zillions with 3 stones"), "{why:?}");
        assert!(why[2].0.contains("-4-") && why[2].1.contains("58 bytes"), "{why:?}");
        assert!(why[3].0.contains("-5-") && why[3].1.contains("damaged"), "{why:?}");
        assert_eq!(values(&again), values(&built));
        assert_eq!(store.saved.lock().unwrap().len(), 8, "the four built again are saved");
        assert_eq!(*store.images.lock().unwrap(), saved_before, "each spoilt image is replaced by a sound one");
    }

    /// A store's name for a layer names the ruleset, the stones and the
    /// image format, and an image that is not one is refused before its
    /// size is trusted.
    #[test]
    fn an_image_too_short_for_its_header_or_without_the_mark_is_refused() {
        let tables = Tables::new(Variant::Zillions);
        assert_eq!(tables.image_name(7), format!("scala-zillions-7-v{IMAGE_FORMAT}.table"));
        let short = tables.install(2, vec![0; 10]).err().unwrap();
        assert!(short.contains("10 bytes"), "{short}");
        let unmarked = tables.install(2, vec![0; 100]).err().unwrap();
        assert!(unmarked.contains("not a parlour table image"), "{unmarked}");
    }

    fn read(variant: Variant, text: &str) -> Position {
        Scala::new(variant).from_record(crate::notation::Record::parse(text).unwrap()).unwrap()
    }

    /// Values read off by hand: a jump onto the goal wins in one; a Zillions
    /// lone stone beside four holds the draw (three of its moves lose at
    /// once, separating the colours); positions outside the tables.
    #[test]
    fn positions_read_by_hand() {
        let t = tables(Variant::Original);
        assert_eq!(t.probe(&read(Variant::Original, "to_move=white; white=f12; black=f13")), Some(Solved::Win(1)));
        let z = tables(Variant::Zillions);
        let pos = read(Variant::Zillions, "to_move=black; white=j7,j8,k8,k9; black=i8");
        assert_eq!(z.probe(&pos), Some(Solved::Draw));
        // Three against three, or too many stones: not in the tables.
        assert_eq!(t.probe(&read(Variant::Original, "to_move=white; white=e5,f5,g5; black=e6,f6,g6")), None);
        assert_eq!(t.probe(&read(Variant::Original, "to_move=white; white=f5; black=c6,d6,e6,f6,g6,h6,i6,i7")), None);
    }

    /// The proven set's wins (an AND/OR prover's exact lengths,
    /// `tests/data/scala-endgames-proven.txt`) of a lone stone against at
    /// most `most - 1`: the tables give each the same length. Returns how
    /// many were compared.
    fn proven_set_agrees(most: usize) -> usize {
        let text = include_str!("../../tests/data/scala-endgames-proven.txt");
        let mut compared = 0;
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let f: Vec<&str> = line.split('\t').collect();
            let variant = if f[0] == "original" { Variant::Original } else { Variant::Zillions };
            let pos = read(variant, f[2]);
            let [w, b] = pos.stones;
            if (w | b).count_ones() as usize > most || !holds(pos.stones) {
                continue;
            }
            let n: u8 = f[3].trim_start_matches("won in ").parse().unwrap();
            let winner = if f[1] == "white" { 0 } else { 1 };
            let want = if pos.to_move == winner { Solved::Win(n) } else { Solved::Loss(n) };
            assert_eq!(tables(variant).probe(&pos), Some(want), "{line}");
            compared += 1;
        }
        compared
    }

    #[test]
    fn the_proven_set_to_five_stones_has_the_tables_lengths() {
        assert!(proven_set_agrees(5) >= 1);
    }

    /// The whole of it that the tables hold, and the top layer checked
    /// against its moves on every 97th slot (minutes of CPU to build them
    /// all): `cargo test --release -p parlour-engine --lib
    /// scala::table::tests::the_proven_set -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn the_proven_set_has_the_tables_lengths() {
        let n = proven_set_agrees(STONES);
        eprintln!("{n} positions of the proven set compared");
        assert!(n >= 10);
        for variant in Variant::ALL {
            let t = tables(variant);
            let checked = check(&Scala::new(variant), t, t.layer(STONES).unwrap(), 97);
            eprintln!("{}: {checked} positions of {STONES} stones checked against their moves", variant.name());
        }
    }

    /// The ply limit makes a draw of a win it would cut short.
    #[test]
    fn a_win_past_the_ply_limit_is_a_draw() {
        let game = crate::Bounded::new(Scala::new(Variant::Original));
        let text = "to_move=white; white=f12; black=f13";
        let pos =
            |extra: &str| game.from_record(crate::notation::Record::parse(&format!("{text}{extra}")).unwrap()).unwrap();
        assert_eq!(game.solved(&pos("; ply=10; max_plies=11")), Some(Solved::Win(1)));
        assert_eq!(game.solved(&pos("; ply=11; max_plies=100")), Some(Solved::Win(1)));
        assert_eq!(game.solved(&pos("")), Some(Solved::Win(1)));
        let far = tables(Variant::Original)
            .layer(4)
            .unwrap()
            .value
            .iter()
            .position(|&v| v & 3 == WIN && v >> 2 >= 5)
            .expect("a win in five or more");
        let layer = tables(Variant::Original).layer(4).unwrap();
        let inner = layer.position(far).unwrap();
        let Some(Solved::Win(d)) = layer.solved(far) else { panic!("a win") };
        let bounded = crate::bounded::BoundedPosition { inner, ply: 0, max_plies: d as u32 - 1, resigned: None };
        assert_eq!(game.solved(&bounded), Some(Solved::Draw));
        let bounded = crate::bounded::BoundedPosition { inner, ply: 0, max_plies: d as u32, resigned: None };
        assert_eq!(game.solved(&bounded), Some(Solved::Win(d)));
    }

    /// The first position (white to move, in the order of the sets and
    /// the colourings of `n` stones with `white` of them white) with at
    /// most ten moves for which `wanted` holds, with the move it names.
    fn find(n: usize, white: u32, wanted: impl Fn(&Position, &[Move]) -> Option<Move>) -> (Position, Move) {
        let game = Scala::new(Variant::Original);
        let mut moves = Vec::new();
        for set in connected_sets(n) {
            for mask in 0u32..1 << n {
                if mask.count_ones() != white {
                    continue;
                }
                let cells: Vec<u8> = Bits(set).collect();
                let w =
                    cells.iter().enumerate().filter(|(i, _)| mask & 1 << i != 0).fold(0u128, |a, (_, &c)| a | bit(c));
                let pos = Position { stones: [w, set & !w], to_move: 0, loser: None };
                if game.outcome(&pos).is_over() {
                    continue;
                }
                moves.clear();
                game.legal_moves(&pos, &mut moves);
                if moves.len() <= 10 {
                    if let Some(mv) = wanted(&pos, &moves) {
                        return (pos, mv);
                    }
                }
            }
        }
        panic!("no such position of {n} stones");
    }

    /// The tables' value of the position after `mv`, for its player to
    /// move; `None` when the game is over there or the tables do not hold it.
    fn after(pos: &Position, mv: Move) -> Option<Solved> {
        let game = Scala::new(Variant::Original);
        let mut child = *pos;
        game.play(&mut child, mv);
        if game.outcome(&child).is_over() {
            return None;
        }
        tables(Variant::Original).probe(&child)
    }

    /// Outside the tables (three against three), a move into a solved draw
    /// is worth `table_draw` to the searching player; in a solved draw, a
    /// move into a solved loss is never played and is worth -1.
    #[test]
    fn a_solved_draw_is_worth_the_contempt_and_a_drawn_position_is_played_on() {
        use crate::search::{mcts::Mcts, HeuristicEval, SearchConfig, SuggestBudget};
        let game = Scala::new(Variant::Original);
        let config = SearchConfig { tables: true, ..SearchConfig::default() };
        let b = SuggestBudget { max_iterations: 200, ..Default::default() };
        let suggest = |pos: Position| {
            let mut search = Mcts::new(&game, &HeuristicEval, pos, config.clone(), &b);
            search.run(&b);
            search.suggestion().unwrap()
        };

        let (pos, drawing) =
            find(6, 3, |pos, moves| moves.iter().copied().find(|&mv| after(pos, mv) == Some(Solved::Draw)));
        assert_eq!(tables(Variant::Original).probe(&pos), None, "three against three is not held");
        let s = suggest(pos);
        let c = s.candidates.iter().find(|c| c.mv == drawing).expect("every move is a candidate");
        assert_eq!(c.value as f32, config.table_draw as f32, "{pos:?}");

        let (pos, losing) = find(5, 1, |pos, moves| {
            let t = tables(Variant::Original);
            (t.probe(pos) == Some(Solved::Draw))
                .then(|| moves.iter().copied().find(|&mv| matches!(after(pos, mv), Some(Solved::Win(_)))))
                .flatten()
        });
        let s = suggest(pos);
        assert!(!matches!(after(&pos, s.mv), Some(Solved::Win(_))), "{pos:?}: {:?} walks into a loss", s.mv);
        let c = s.candidates.iter().find(|c| c.mv == losing).expect("every move is a candidate");
        assert_eq!(c.value, -1.0, "{pos:?}");
    }

    /// With the tables on, the tree search plays a solved win out in its
    /// distance against itself, at a handful of iterations: each move the
    /// shortest win, each answer the longest loss.
    #[test]
    fn the_search_with_tables_converts_a_solved_win_in_its_distance() {
        use crate::search::{mcts::Mcts, HeuristicEval, SearchConfig, SuggestBudget};
        for variant in Variant::ALL {
            let game = Scala::new(variant);
            let layer = tables(variant).layer(5).unwrap();
            let slot = (0..layer.slots())
                .find(|&s| layer.value[s] & 3 == WIN && layer.value[s] >> 2 == 9)
                .expect("a win in 9");
            let mut pos = layer.position(slot).unwrap();
            let winner = pos.to_move;
            let config = SearchConfig { tables: true, ..SearchConfig::default() };
            let b = SuggestBudget { max_iterations: 20, ..Default::default() };
            for ply in 0..9 {
                assert!(!game.outcome(&pos).is_over(), "{variant:?}: over after {ply} plies");
                let mut search = Mcts::new(&game, &HeuristicEval, pos, config.clone(), &b);
                search.run(&b);
                let s = search.suggestion().unwrap();
                assert!(s.proven, "{variant:?} ply {ply}");
                game.play(&mut pos, s.mv);
            }
            assert_eq!(game.outcome(&pos), Outcome::Won(vec![winner]), "{variant:?}");
        }
    }

    #[test]
    #[ignore]
    fn build_timing() {
        let max: usize = stones_from_env(5);
        for variant in Variant::ALL {
            let game = Scala::new(variant);
            let t = std::time::Instant::now();
            let tables = Tables::new(variant);
            for n in 2..=max {
                let t1 = std::time::Instant::now();
                let layer = tables.layer(n).unwrap();
                let (mut w, mut l, mut d) = (0, 0, 0);
                let mut far = 0u8;
                for &v in &layer.value {
                    match v & 3 {
                        WIN => w += 1,
                        LOSS => l += 1,
                        DRAW => d += 1,
                        _ => {}
                    }
                    if v & 3 != 3 {
                        far = far.max(v >> 2);
                    }
                }
                eprintln!(
                    "{} n={n}: {} sets, {} slots, win {w} loss {l} draw {d}, longest {far}, {:?}",
                    variant.name(),
                    layer.sets.len(),
                    layer.slots(),
                    t1.elapsed()
                );
            }
            eprintln!("{} total {:?}", variant.name(), t.elapsed());
            let t = std::time::Instant::now();
            let c = check(&game, &tables, tables.layer(max).unwrap(), 7);
            eprintln!("checked {c} in {:?}", t.elapsed());
        }
    }
}

#[cfg(test)]
mod probe {
    use super::*;

    /// `PARLOUR_TABLE_PROBE='variant|position;;variant|position'`: prints the
    /// tables' value of each position and of each of its moves.
    #[test]
    #[ignore]
    fn probe_positions() {
        let max: usize = stones_from_env(5);
        let spec = std::env::var("PARLOUR_TABLE_PROBE").unwrap_or_default();
        for variant in Variant::ALL {
            let items: Vec<&str> = spec
                .split(";;")
                .filter_map(|s| s.strip_prefix(variant.name()).and_then(|s| s.strip_prefix('|')))
                .collect();
            if items.is_empty() {
                continue;
            }
            let game = Scala::new(variant);
            let tables = Tables::new(variant);
            tables.layer(max);
            for text in items {
                let pos = game.from_record(crate::notation::Record::parse(text).unwrap()).unwrap();
                eprintln!("{} {text}: {:?}", variant.name(), tables.probe(&pos));
                let mut moves = Vec::new();
                game.legal_moves(&pos, &mut moves);
                let mut line = String::new();
                for mv in moves {
                    let mut c = pos;
                    game.play(&mut c, mv);
                    let v =
                        if game.outcome(&c).is_over() { "over".to_string() } else { format!("{:?}", tables.probe(&c)) };
                    line += &format!(" {}:{v}", game.move_notation(&pos, mv));
                }
                eprintln!("   {line}");
            }
        }
    }
}

#[cfg(test)]
mod calibration {
    use super::*;

    /// The search value (`Game::search_value`, the side to move's) against
    /// the tables' verdict, over the positions of a lone stone with
    /// `PARLOUR_TABLE_STONES` stones in all (default 6), by bands of value; docs/ai.md, "Scala endgame
    /// tables". `cargo test --release -p parlour-engine --lib
    /// scala::table::calibration -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn search_value_against_the_tables() {
        let n: usize = stones_from_env(6);
        let bands = [-1.01, -0.3, -0.1, 0.1, 0.3, 1.01];
        for variant in Variant::ALL {
            let game = Scala::new(variant);
            let layer = tables(variant).layer(n).unwrap();
            // [band][larger side to move?][win, draw, loss]
            let mut counts = [[[0u64; 3]; 2]; 5];
            for slot in 0..layer.slots() {
                let Some(solved) = layer.solved(slot) else { continue };
                let pos = layer.position(slot).unwrap();
                if pos.stones[0].count_ones().min(pos.stones[1].count_ones()) != 1 {
                    continue; // a lone stone's endgames only
                }
                let v = game.search_value(&pos, pos.to_move);
                let band = bands.windows(2).position(|w| v >= w[0] && v < w[1]).unwrap_or(4);
                let major = (pos.stones[pos.to_move as usize].count_ones() > 1) as usize;
                let k = match solved {
                    Solved::Win(_) => 0,
                    Solved::Draw => 1,
                    Solved::Loss(_) => 2,
                };
                counts[band][major][k] += 1;
            }
            for (b, c) in counts.iter().enumerate() {
                for (major, who) in ["the lone stone to move", "the larger side to move"].iter().enumerate() {
                    let [w, d, l] = c[major];
                    let t = (w + d + l).max(1) as f64;
                    eprintln!(
                        "{} {n} stones, value in [{:+.2}, {:+.2}), {who}: {} positions, won {:.1} %, drawn {:.1} %, lost {:.1} %",
                        variant.name(),
                        bands[b],
                        bands[b + 1],
                        w + d + l,
                        100.0 * w as f64 / t,
                        100.0 * d as f64 / t,
                        100.0 * l as f64 / t
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod games_read {
    use super::*;

    struct Dir(String);
    impl TableStore for Dir {
        fn load(&self, name: &str) -> Option<Vec<u8>> {
            std::fs::read(format!("{}/{name}", self.0)).ok()
        }
        fn save(&self, _: &str, _: &[u8]) {}
        fn rejected(&self, name: &str, why: &str) {
            panic!("{name}: {why}")
        }
        fn keeps(&self) -> bool {
            false
        }
    }

    /// The games of an arena run read against the tables: for each game of
    /// `PARLOUR_GAMES` (the arena's `--verbose --all-moves` stderr, one
    /// ruleset, `PARLOUR_VARIANT`: original or zillions), the tables'
    /// value for the player (A) of the first position of the game they
    /// hold, counted by the game's result; with `PARLOUR_GAMES_LIST=1`,
    /// each game too. Tables from `PARLOUR_TABLE_DIR`. docs/ai.md,
    /// "Endgames past the tables, lifted". `PARLOUR_TABLE_DIR=DIR
    /// PARLOUR_VARIANT=original PARLOUR_GAMES=run.err cargo test --release
    /// -p parlour-engine --lib scala::table::games_read -- --ignored
    /// --nocapture`.
    #[test]
    #[ignore]
    fn the_games_entered_the_tables_how() {
        let var = |k: &str| std::env::var(k).unwrap_or_else(|_| panic!("{k}"));
        let variant = if var("PARLOUR_VARIANT") == "zillions" { Variant::Zillions } else { Variant::Original };
        let list = std::env::var("PARLOUR_GAMES_LIST").is_ok_and(|v| v == "1");
        let game = Scala::new(variant);
        let t = tables(variant);
        t.prepare(&Dir(var("PARLOUR_TABLE_DIR")));
        let text = std::fs::read_to_string(var("PARLOUR_GAMES")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // [result W, D, L][entry for A: won, drawn, lost, never]
        let mut counts = [[0u32; 4]; 3];
        for (i, line) in lines.iter().enumerate() {
            let Some(rest) = line.split_once(": game ").map(|x| x.1) else { continue };
            let g: u32 = rest.split(',').next().unwrap().parse().unwrap();
            let seat: Player = rest.split("A in seat ").nth(1).unwrap()[..1].parse().unwrap();
            let result = ["W", "D", "L"].iter().position(|r| rest.contains(&format!(": {r} after "))).unwrap();
            let Some(moves) = lines.get(i + 1).and_then(|l| l.strip_prefix(&format!("#   moves of game {g}: "))) else {
                continue;
            };
            let moves: Vec<String> =
                serde_json::from_str(moves).unwrap_or_else(|e| panic!("game {g}: the moves line: {e}"));
            let mut pos = game.start();
            let mut entry = (3usize, 0usize, String::new());
            for (ply, m) in moves.iter().enumerate() {
                let mv = game.parse_move(&pos, m).unwrap_or_else(|e| panic!("game {g} ply {ply} {m}: {e:?}"));
                game.play(&mut pos, mv);
                if game.outcome(&pos).is_over() {
                    break;
                }
                if let Some(s) = t.probe(&pos) {
                    let mine = pos.to_move == seat;
                    let k = match (s, mine) {
                        (Solved::Draw, _) => 1,
                        (Solved::Win(_), true) | (Solved::Loss(_), false) => 0,
                        _ => 2,
                    };
                    entry = (k, ply + 1, format!("{pos:?}"));
                    break;
                }
            }
            counts[result][entry.0] += 1;
            if list {
                eprintln!(
                    "game {g} A {seat} {}: entry {} at ply {} {}",
                    ["W", "D", "L"][result],
                    ["won", "drawn", "lost", "never"][entry.0],
                    entry.1,
                    entry.2
                );
            }
        }
        for (r, name) in ["won", "drawn", "lost"].iter().enumerate() {
            let [w, d, l, n] = counts[r];
            eprintln!("games {name} by A: entered the tables won for A {w}, drawn {d}, lost {l}; never entered {n}");
        }
    }
}
