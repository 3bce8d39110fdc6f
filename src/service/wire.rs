//! The replies of the hot rules calls (GenerateMoves, ApplyMove, Evaluate)
//! written straight from the engine's views into protobuf bytes (issue #25).
//!
//! [`crate::convert`] builds the `pb` messages, which prost then encodes: a
//! `String` per cell name and per move, a length computed for each nested
//! message at every level, and all of it freed again. Here every cell name
//! is borrowed from the game's [`Description`] and written once into one
//! buffer, nested messages get their length patched in after they are
//! written, and nothing is allocated per move or cell.
//!
//! The bytes are exactly prost's encoding of what `convert` builds (fields
//! in tag order, proto3 defaults left out, packed repeated numbers):
//! `tests::same_bytes_as_prost` checks every game's replies in every view
//! and state form, so the two stay one contract.

use crate::convert::is_full;
use crate::pb;
use parlour_engine::describe::{ShortNames, LONG_NAME};
use parlour_engine::front::{MoveView, StateView};
use parlour_engine::{
    AnyGame, Described, Description, Evaluation, MatchStanding, MoveDetails, MoveKind, Outcome, Owner, PlayerMeasures,
};
use prost::encoding;

const VARINT: u32 = 0;

/// Copies `b` (at most 8 bytes) to `tmp[2..]` by fixed-size copies, which
/// compile to a store or two each, where a copy of unknown length calls
/// `memcpy`.
#[inline(always)]
fn short_copy(tmp: &mut [u8; 10], b: &[u8]) {
    macro_rules! by_length {
        ($($n:literal)*) => {
            match b.len() {
                $($n => tmp[2..2 + $n].copy_from_slice(&b[..$n]),)*
                _ => tmp[2..2 + b.len()].copy_from_slice(b),
            }
        };
    }
    by_length!(1 2 3 4 5 6 7 8);
}
const LEN: u32 = 2;

/// Copies `src` to the start of `dst` (at least as long): up to 16 bytes
/// by two overlapping fixed-size copies, which compile to a load and a
/// store each, where a copy of unknown length calls `memcpy`.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if n > 16 {
        dst[..n].copy_from_slice(src);
    } else if n >= 8 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..n].copy_from_slice(&src[n - 8..]);
    } else if n >= 4 {
        dst[..4].copy_from_slice(&src[..4]);
        dst[n - 4..n].copy_from_slice(&src[n - 4..]);
    } else {
        for (d, s) in dst.iter_mut().zip(src) {
            *d = *s;
        }
    }
}

/// A reply being written.
pub struct Wire {
    pub buf: Vec<u8>,
    /// A move gathered before it is appended ([`Wire::short_path`],
    /// [`Wire::short_move`]): written at a `u8` cursor, a cell name's
    /// entry of 16 bytes at a time, so no write can pass its end (255 + 16
    /// is less than its length) and none is checked; kept from move to
    /// move and never cleared (only the bytes before the cursor are
    /// kept), where a buffer on the stack was zeroed for every move. A
    /// fan's moves ([`Wire::fan`]) are gathered one after another, each
    /// in the `ROOM` bytes from where the last ended, up to `FAN_AHEAD`.
    room: [u8; FAN_AHEAD + ROOM],
    /// [`Wire::fan`]'s kept moves, one a kind: kept here from fan to fan
    /// (each fan marks them empty), so no fan clears 128 bytes.
    laid: [FanMove; 2],
    /// The fan of one kind that `laid` was kept by ([`fan_key`]; `NO_FAN`
    /// after any other fan), and its kind's protobuf value: the next fan
    /// of one kind from the same cell takes its kept moves over, the kind
    /// written in.
    laid_by: u32,
    laid_kind: u8,
}

/// [`Wire`]'s `laid_by` when no fan of one kind kept its moves.
const NO_FAN: u32 = u32::MAX;

/// What a fan's kept moves depend on but for its kind: `from`, `sep`,
/// the field's tag (under 16) and the view.
#[inline(always)]
fn fan_key(from: u8, sep: u8, tag: u32, full: bool) -> u32 {
    u32::from(from) | u32::from(sep) << 8 | tag << 16 | u32::from(full) << 20
}

/// The room a move is gathered in ([`Wire`]'s `room`): any `u8` cursor
/// and 16 bytes.
const ROOM: usize = 256 + 16;

/// How far into [`Wire`]'s `room` a fan's moves are gathered before
/// they are appended: a few moves of some 30 bytes at once, where each
/// move alone cost a check of the reply's capacity, a copy and a cut. As
/// far as a `u8` cursor allows: a gathered move is at most 99 bytes, and
/// 150 + 99 is under 256 (at 128, a fifth more appends; issue #25).
const FAN_AHEAD: usize = 150;

/// The longest reply buffer kept for the next list ([`keep_reply`]).
const KEPT_REPLY: usize = 64 * 1024;

thread_local! {
    /// A list's reply buffer, handed back once its bytes are sent
    /// ([`keep_reply`]) and taken by the next list on the thread
    /// ([`Wire::for_list`]).
    static SPARE_REPLY: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Keeps a reply's buffer, once its bytes are copied out, for the next
/// [`Wire::for_list`] on this thread: a list's reply of several KB is past
/// what the allocator keeps at hand a thread, so each took and gave back
/// its buffer the slow way (about 1,000 instructions a call, issue #25).
/// Buffers of under `min` bytes (the short replies) or over
/// [`KEPT_REPLY`] are dropped.
pub fn keep_reply(buf: Vec<u8>, min: usize) {
    if (min..=KEPT_REPLY).contains(&buf.capacity()) {
        SPARE_REPLY.set(buf);
    }
}

impl Default for Wire {
    fn default() -> Self {
        Wire::with_capacity(0)
    }
}

/// Cell `c`'s entry in the game's [`ShortNames`] table (its name laid out
/// as a string field but for its key, `[key, length, name..]`), or `None`
/// for a name too long to lay out (or a cell past 127, which no board
/// has): a cell name is then written as one 16-byte copy, its key set and
/// the length cut, with no look-up of the name nor a copy of unknown
/// length (a list of moves names hundreds of cells).
#[inline(always)]
fn short_name(names: &ShortNames, c: u8) -> Option<&[u8; 16]> {
    let f = names.get(c as usize)?;
    (f[1] != LONG_NAME).then_some(f)
}

impl Wire {
    pub fn with_capacity(n: usize) -> Self {
        Wire::with_buf(Vec::with_capacity(n))
    }

    fn with_buf(buf: Vec<u8>) -> Self {
        Wire { buf, room: [0; FAN_AHEAD + ROOM], laid: [FanMove::NONE; 2], laid_by: NO_FAN, laid_kind: 0 }
    }

    /// A wire for a reply of up to `n` bytes or so: the buffer
    /// [`keep_reply`] kept on this thread, emptied, when there is one of
    /// that size (else a new one).
    pub fn for_list(n: usize) -> Self {
        let mut buf = SPARE_REPLY.take();
        if buf.capacity() < n {
            buf = Vec::with_capacity(n);
        }
        buf.clear();
        Wire::with_buf(buf)
    }

    /// Cell `c`'s name as one element of a repeated string field.
    #[inline]
    fn cell(&mut self, tag: u32, d: &Description, c: u8) {
        if !self.short_cell(tag, d, c) {
            self.element(tag, d.cell_name(c));
        }
    }

    /// Cell `c`'s name as a string field, left out when empty (proto3).
    #[inline]
    fn cell_field(&mut self, tag: u32, d: &Description, c: u8) {
        if !self.short_cell(tag, d, c) {
            self.string(tag, d.cell_name(c));
        }
    }

    /// Writes cell `c`'s name, not empty and at most 14 bytes, as a string
    /// field from [`ShortNames`]; false (nothing written) for any other name.
    #[inline]
    fn short_cell(&mut self, tag: u32, d: &Description, c: u8) -> bool {
        match short_name(d.short_names(), c) {
            Some(&f) if tag < 16 => {
                let mut f = f;
                f[0] = (tag << 3 | LEN) as u8;
                let len = self.buf.len() + 2 + f[1] as usize;
                self.buf.extend_from_slice(&f);
                self.buf.truncate(len);
                true
            }
            _ => false,
        }
    }

    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    fn key(&mut self, tag: u32, wire_type: u32) {
        self.varint(u64::from(tag << 3 | wire_type));
    }

    /// A string field, left out when empty (proto3).
    fn string(&mut self, tag: u32, s: &str) {
        if !s.is_empty() {
            self.element(tag, s);
        }
    }

    /// One element of a repeated string field (written even when empty).
    #[inline]
    fn element(&mut self, tag: u32, s: &str) {
        let b = s.as_bytes();
        if tag < 16 && b.len() <= 8 {
            // The common case (a cell name, a move's notation): key, length
            // and bytes gathered in ten bytes on the stack and appended as
            // one fixed-size copy, then cut to length: no `memcpy` call and
            // one capacity check (hundreds of names a reply).
            let mut tmp = [0u8; 10];
            tmp[0] = (tag << 3 | LEN) as u8;
            tmp[1] = b.len() as u8;
            short_copy(&mut tmp, b);
            let len = self.buf.len() + 2 + b.len();
            self.buf.extend_from_slice(&tmp);
            self.buf.truncate(len);
        } else if tag < 16 && b.len() < 0x80 {
            self.buf.extend_from_slice(&[(tag << 3 | LEN) as u8, b.len() as u8]);
            self.buf.extend_from_slice(b);
        } else {
            self.long_element(tag, b);
        }
    }

    /// [`Wire::element`] with a longer key or length.
    #[cold]
    #[inline(never)]
    fn long_element(&mut self, tag: u32, b: &[u8]) {
        self.key(tag, LEN);
        self.varint(b.len() as u64);
        self.buf.extend_from_slice(b);
    }

    /// A `uint32`, `uint64`, `bool` or enum field, left out when zero.
    fn uint(&mut self, tag: u32, v: u64) {
        if v != 0 {
            self.key(tag, VARINT);
            self.varint(v);
        }
    }

    /// An `optional` scalar: written whenever set.
    fn optional(&mut self, tag: u32, v: Option<u64>) {
        if let Some(v) = v {
            self.key(tag, VARINT);
            self.varint(v);
        }
    }

    /// An enum field (non-negative values only, as all of ours are).
    fn enumeration(&mut self, tag: u32, v: i32) {
        self.uint(tag, v as u64);
    }

    /// A nested message (written even when empty): its body is written in
    /// place after a one-byte length, which is widened afterwards if the
    /// body is 128 bytes or more.
    fn message(&mut self, tag: u32, body: impl FnOnce(&mut Self)) {
        self.key(tag, LEN);
        let at = self.buf.len();
        self.buf.push(0);
        body(self);
        let len = self.buf.len() - at - 1;
        if len < 0x80 {
            self.buf[at] = len as u8;
            return;
        }
        let mut prefix = [0u8; 10];
        let mut n = 0;
        let mut v = len as u64;
        while v >= 0x80 {
            prefix[n] = v as u8 | 0x80;
            v >>= 7;
            n += 1;
        }
        prefix[n] = v as u8;
        n += 1;
        let end = self.buf.len();
        self.buf.resize(end + n - 1, 0);
        self.buf.copy_within(at + 1..end, at + n);
        self.buf[at..at + n].copy_from_slice(&prefix[..n]);
    }

    /// Cell names as a repeated string field.
    fn cells(&mut self, tag: u32, d: &Description, cells: &[u8]) {
        for &c in cells {
            self.cell(tag, d, c);
        }
    }

    /// Colour names of player indices as a repeated string field.
    fn players(&mut self, tag: u32, d: &Description, ps: &[u8]) {
        for &p in ps {
            self.element(tag, d.players[p as usize].name);
        }
    }

    /// Seat names of seat indices as a repeated string field.
    fn seats(&mut self, tag: u32, d: &Description, ps: &[u8]) {
        for &p in ps {
            self.element(tag, d.seats()[p as usize].name);
        }
    }
}

/// Where a move gathered in [`Wire`]'s `room` may still take one more
/// cell name (of up to 16 bytes: at most 176 in all, which a `u8` cursor
/// holds): a move whose message is longer than a one-byte length allows
/// goes the general way anyway.
const MOVE_ROOM: u8 = 160;

/// Cell name entry `e` (from [`ShortNames`]) written at `n` in `room` as
/// a string field of key `key`; the cursor after it. The whole entry is
/// copied (its bytes past the name are overwritten by what follows, or
/// cut), then its first byte set to the key: with a `u8` cursor neither
/// write is checked.
#[inline(always)]
fn put_name(room: &mut [u8; ROOM], n: u8, key: u8, e: &[u8; 16]) -> u8 {
    let at = usize::from(n);
    room[at..at + 16].copy_from_slice(e);
    room[at] = key;
    n + 2 + e[1]
}

/// A fan's move as [`Wire::fan`] gathered it, kept to lay out the next
/// move of its kind whose `to` has a name of the same length: the bytes
/// are the same but for that name, in three places (the notation, `to`
/// and the path's last cell). Kept as three pieces of 16 bytes, each the
/// move's bytes from the end of one `to` name (the first from the start)
/// up to the next, so a move is six fixed-size stores at fixed offsets:
/// a piece, `to`'s name as one 8-byte store, and so on, each store
/// overwriting what the one before wrote past its part; where a copy of
/// the whole move and three masked writes of the name (read, mask,
/// write) took about twice the instructions (issue #25). Kept for
/// moves whose `to` has a name of 1 to 8 bytes and `from` one of at most
/// 10 (so that each piece is at most 16 bytes).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct FanMove {
    parts: [[u8; 16]; 3],
    /// Where `to`'s name starts, in the notation, `to` and the path.
    to_at: [u8; 3],
    /// Where the second and third pieces start (after the first two names).
    part_at: [u8; 2],
    len: u8,
    /// The length of `to`'s name; 0 (no name is empty) when none is kept.
    to_len: u8,
}

impl FanMove {
    const NONE: FanMove = FanMove { parts: [[0; 16]; 3], to_at: [0; 3], part_at: [0; 2], len: 0, to_len: 0 };

    /// Keeps the move of `n` bytes just gathered in `a` (by [`gather_ends`]
    /// and one more [`put_name`] of `to`; `from`'s and `to`'s names `lf`
    /// and `lt` long), or marks none kept (`to_len` 0) when it is not
    /// kept. Written in place: built aside and then copied, the move went
    /// through the stack a few bytes at a time (about 22 instructions
    /// more a kept move; issue #25).
    #[inline(always)]
    fn keep(&mut self, a: &[u8; ROOM], lf: u8, lt: u8, n: u8) {
        if lf > 10 || lt == 0 || lt > 8 {
            self.to_len = 0;
            return;
        }
        // The notation's `to` follows `from`'s name and `sep`; the path's
        // `to` ends the move, after `to` ([key, length, name]) and the
        // path's `from` (the same) before it.
        let last = n - lt;
        let to_at = [5 + lf, last - 4 - lf - lt, last];
        let part_at = [to_at[0] + lt, to_at[1] + lt];
        let part = |at: u8| -> [u8; 16] { a[usize::from(at)..][..16].try_into().expect("16 bytes") };
        self.parts = [part(0), part(part_at[0]), part(part_at[1])];
        self.to_at = to_at;
        self.part_at = part_at;
        self.len = n;
        self.to_len = lt;
    }

    /// The move to the cell of entry `t` (its name `to_len` long) laid
    /// out at the start of `a`; its length.
    #[inline(always)]
    fn put(&self, a: &mut [u8; ROOM], t: &[u8; 16]) -> u8 {
        let name: [u8; 8] = t[2..10].try_into().expect("8 bytes");
        // Offsets under 256: with `ROOM` bytes no store is checked.
        let [n0, n1, n2] = self.to_at.map(usize::from);
        let [p1, p2] = self.part_at.map(usize::from);
        a[..16].copy_from_slice(&self.parts[0]);
        a[n0..][..8].copy_from_slice(&name);
        a[p1..][..16].copy_from_slice(&self.parts[1]);
        a[n1..][..8].copy_from_slice(&name);
        a[p2..][..16].copy_from_slice(&self.parts[2]);
        a[n2..][..8].copy_from_slice(&name);
        self.len
    }
}

/// What [`Wire::fan`]'s moves share: the fan's own arguments, `from`'s
/// entry in [`ShortNames`] and the kinds' protobuf values.
struct Fan<'a> {
    tag: u32,
    d: &'a Description,
    names: &'a ShortNames,
    from: u8,
    f: &'a [u8; 16],
    sep: u8,
    kinds: [MoveKind; 2],
    keys: [u8; 2],
    full: bool,
}

/// The start of a move between the cells of entries `f` and `t` (from
/// [`ShortNames`]) gathered in `room` after its key and length: the
/// notation (`f`'s name, `sep`, `t`'s name), the kind (`k`, left out when
/// zero), `from`, `to` and the path's first cell; the cursor after it.
/// Then come the path's other cells and the captured ones.
#[inline(always)]
fn gather_ends(a: &mut [u8; ROOM], f: &[u8; 16], t: &[u8; 16], sep: u8, k: u8) -> u8 {
    let (lf, lt) = (f[1], t[1]);
    // The notation: key, length, `from`'s name, `sep`, `to`'s name.
    a[2] = (1 << 3 | LEN) as u8;
    a[3] = lf + 1 + lt;
    a[4..18].copy_from_slice(&f[2..]);
    let at = usize::from(4 + lf);
    a[at] = sep;
    a[at + 1..at + 15].copy_from_slice(&t[2..]);
    let mut n = 5 + lf + lt;
    if k != 0 {
        a[usize::from(n)] = (2 << 3) as u8;
        a[usize::from(n) + 1] = k;
        n += 2;
    }
    // `from`, `to`, then the path: the two again (`via` between them).
    n = put_name(a, n, (3 << 3 | LEN) as u8, f);
    n = put_name(a, n, (4 << 3 | LEN) as u8, t);
    put_name(a, n, (5 << 3 | LEN) as u8, f)
}

impl Wire {
    /// A `Move` field.
    #[inline]
    pub fn mv(&mut self, tag: u32, d: &Description, m: &MoveView, full: bool) {
        if !self.short_move(tag, d, m, full) {
            self.message(tag, |w| mv(w, d, m, full));
        }
    }

    /// A move as the engine hands it on ([`Described`]) as a `Move` field:
    /// a [`Described::Between`] from its cell names ([`Wire::short_between`]),
    /// the same bytes as [`Wire::mv`] of its [`Described::to_view`].
    #[inline]
    pub fn described(&mut self, tag: u32, d: &Description, m: Described<'_>, full: bool) {
        match m {
            Described::View(v) => self.mv(tag, d, v, full),
            Described::Between { kind, from, to, sep, captured } => {
                if !self.short_between(tag, d, kind, [from, to], sep, captured) {
                    self.between_general(tag, d, m, full);
                }
            }
            Described::Fan { from, to, sep, kind, other, others } => {
                self.fan(tag, d, from, to, sep, [kind, other], others, full)
            }
            Described::Path { kind, path, sep, captured } => {
                let short = match path {
                    [from, via @ .., to] => self.short_path(tag, d, kind, [*from, *to], via, sep, captured),
                    _ => false,
                };
                if !short {
                    self.between_general(tag, d, m, full);
                }
            }
        }
    }

    /// [`Wire::described`] of a move [`Wire::short_between`] or
    /// [`Wire::short_path`] does not take: through its view.
    #[cold]
    #[inline(never)]
    fn between_general(&mut self, tag: u32, d: &Description, m: Described<'_>, full: bool) {
        let v = m.to_view(|c| d.cell_name(c));
        self.mv(tag, d, &v, full);
    }

    /// A [`Described::Between`] move written from the game's
    /// [`ShortNames`] alone, as [`Wire::short_move`] writes its view (so
    /// [`mv`]'s bytes): the notation is `from`'s name, `sep` and `to`'s
    /// name, copied from the names' entries; `from`, `to`, the path (the
    /// two again) and each captured cell one 16-byte copy each
    /// ([`put_name`]); nothing
    /// passed over (the full view shows none). False, with nothing
    /// written, when a name is not short, a tag or the move too long for
    /// one-byte keys and lengths.
    #[inline]
    fn short_between(
        &mut self,
        tag: u32,
        d: &Description,
        kind: MoveKind,
        ends: [u8; 2],
        sep: u8,
        captured: u128,
    ) -> bool {
        self.short_path(tag, d, kind, ends, &[], sep, captured)
    }

    /// [`Wire::short_between`] of a [`Described::Path`]: its ends, and
    /// `via` (the cells it lands on between them) in its path between
    /// them; false, with nothing written, also when the path is too long
    /// for the buffer.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn short_path(
        &mut self,
        tag: u32,
        d: &Description,
        kind: MoveKind,
        [from, to]: [u8; 2],
        via: &[u8],
        sep: u8,
        captured: u128,
    ) -> bool {
        let names = d.short_names();
        let (Some(f), Some(t)) = (short_name(names, from), short_name(names, to)) else { return false };
        if tag >= 16 {
            return false;
        }
        let a = self.move_room(0);
        let mut n = gather_ends(a, f, t, sep, crate::convert::kind(kind) as u8);
        for &c in via {
            // Room for this cell and `to` after it.
            if n > MOVE_ROOM - 16 {
                return false;
            }
            let Some(e) = short_name(names, c) else { return false };
            n = put_name(a, n, (5 << 3 | LEN) as u8, e);
        }
        n = put_name(a, n, (5 << 3 | LEN) as u8, t);
        let mut left = captured;
        while left != 0 {
            let c = left.trailing_zeros() as u8;
            left &= left - 1;
            if n > MOVE_ROOM {
                return false;
            }
            let Some(e) = short_name(names, c) else { return false };
            n = put_name(a, n, (6 << 3 | LEN) as u8, e);
        }
        self.append_gathered(n, tag)
    }

    /// A [`Described::Fan`]'s moves, each with the bytes
    /// [`Wire::described`] writes for it as a [`Described::Between`]
    /// (`kinds`: the fan's `kind` and `other`), in one loop: `from`'s name
    /// and the kinds looked up once, nothing captured to look for, no call
    /// a move (issue #25). A move whose names are not short goes the
    /// general way.
    #[allow(clippy::too_many_arguments)]
    fn fan(
        &mut self,
        tag: u32,
        d: &Description,
        from: u8,
        to: u128,
        sep: u8,
        kinds: [MoveKind; 2],
        others: u128,
        full: bool,
    ) {
        let names = d.short_names();
        let Some(f) = short_name(names, from).filter(|_| tag < 16) else {
            // `from`'s name is not short: every move the general way.
            let mut left = to;
            while left != 0 {
                let c = left.trailing_zeros() as u8;
                left &= left - 1;
                let kind = kinds[(others >> c) as usize & 1];
                self.between_general(tag, d, Described::Between { kind, from, to: c, sep, captured: 0 }, full);
            }
            return;
        };
        // A fan of one kind (`kind` and `other` the same) keeps a move for
        // each parity of `to`'s name length instead of one a kind, so a
        // fan whose names alternate between two lengths (`a9`, `a10`)
        // gathers at most two moves, not one at each change (issue #25:
        // Shoulder to Shoulder's fans are all of one kind; a gathered
        // move costs about 80 instructions more than a copied one). Told
        // by the kinds, not by `others` (a `u128` test or two a fan, paid
        // by every fan of two kinds too).
        let one = kinds[0] == kinds[1];
        let fan = Fan { tag, d, names, from, f, sep, kinds, keys: kinds.map(|k| crate::convert::kind(k) as u8), full };
        // The moves gathered in `room` and not yet appended: at most
        // `FAN_AHEAD` bytes before a move, so each move has its `ROOM`.
        let mut at: u8 = 0;
        // Each kind's last move (`self.laid`), to copy for the next of that
        // kind whose `to` has a name of the same length (most of a fan's
        // moves): none yet; or, for a fan of one kind from the cell of the
        // last fan, which was of one kind too (Shoulder to Shoulder's
        // squeezes after its straight moves), that fan's kept moves with
        // this fan's kind written in: the kind's value is the byte after
        // the notation, the second of the second piece, when both kinds'
        // values are written (not 0). Issue #25: about 80 instructions a
        // move not gathered, one or two a fan.
        let key = if one { fan_key(from, sep, tag, full) } else { NO_FAN };
        let k = fan.keys[0];
        if one && self.laid_by == key && self.laid_kind != 0 && k != 0 {
            if self.laid_kind != k {
                self.laid[0].parts[1][1] = k;
                self.laid[1].parts[1][1] = k;
            }
        } else {
            self.laid[0].to_len = 0;
            self.laid[1].to_len = 0;
        }
        self.laid_by = key;
        self.laid_kind = k;
        // The cells walked a half at a time: a `u64`'s lowest bit and
        // shift are one instruction each, a `u128`'s five or more.
        if one {
            self.fan_half::<0, true>(&fan, to as u64, 0, &mut at);
            self.fan_half::<64, true>(&fan, (to >> 64) as u64, 0, &mut at);
        } else {
            self.fan_half::<0, false>(&fan, to as u64, others as u64, &mut at);
            self.fan_half::<64, false>(&fan, (to >> 64) as u64, (others >> 64) as u64, &mut at);
        }
        self.buf.extend_from_slice(&self.room[..usize::from(at)]);
    }

    /// [`Wire::fan`]'s moves to the cells `HALF + i` of the bits `i` of
    /// `to`, of the second kind where `others` has the bit; `at` and `laid`
    /// as there. `BY_LEN`: a fan of one kind (both of `fan.kinds` the
    /// same), whose kept moves are one for each parity of `to`'s name
    /// length (`others` unused).
    #[inline(always)]
    fn fan_half<const HALF: u8, const BY_LEN: bool>(&mut self, fan: &Fan, mut left: u64, others: u64, at: &mut u8) {
        let names = fan.names;
        while left != 0 {
            let i = left.trailing_zeros();
            left &= left - 1;
            let c = HALF + i as u8;
            let t = &names[usize::from(c & 127)];
            let which = if BY_LEN { usize::from(t[1] & 1) } else { (others >> i) as usize & 1 };
            // A kept move's `to_len` is 1 to 8: never a long name's.
            if self.laid[which].to_len == t[1] {
                let like = self.laid[which];
                let a = self.move_room(*at);
                *at += like.put(a, t);
                if usize::from(*at) > FAN_AHEAD {
                    self.buf.extend_from_slice(&self.room[..usize::from(*at)]);
                    *at = 0;
                }
                continue;
            }
            // At most `FAN_AHEAD` (as after each move here), so the
            // compiler knows each move's room is in `room`.
            *at = self.fan_first(fan, c, which, *at).min(FAN_AHEAD as u8);
        }
    }

    /// A fan's move to `c` that no kept move lays out: gathered, and kept
    /// for the next of its kind ([`FanMove::keep`]), or written the general
    /// way when a name is not short.
    #[inline(never)]
    fn fan_first(&mut self, fan: &Fan, c: u8, which: usize, mut at: u8) -> u8 {
        let at = &mut at;
        if let Some(t) = short_name(fan.names, c) {
            // The room borrowed apart from `laid`, so the kept move is
            // written where it is kept.
            let a: &mut [u8; ROOM] = (&mut self.room[usize::from(*at)..][..ROOM]).try_into().expect("a move's room");
            let mut n = gather_ends(a, fan.f, t, fan.sep, fan.keys[which]);
            n = put_name(a, n, (5 << 3 | LEN) as u8, t);
            // At most 99 bytes (four names of 16, the notation of 31,
            // the kind, the key and length): `at` stays under 256.
            if n - 2 < 0x80 {
                a[0] = (fan.tag << 3 | LEN) as u8;
                a[1] = n - 2;
                self.laid[which].keep(a, fan.f[1], t[1], n);
                *at += n;
                if usize::from(*at) > FAN_AHEAD {
                    self.buf.extend_from_slice(&self.room[..usize::from(*at)]);
                    *at = 0;
                }
                return *at;
            }
        }
        self.buf.extend_from_slice(&self.room[..usize::from(*at)]);
        *at = 0;
        let m = Described::Between { kind: fan.kinds[which], from: fan.from, to: c, sep: fan.sep, captured: 0 };
        self.between_general(fan.tag, fan.d, m, fan.full);
        0
    }

    /// The `ROOM` bytes of `room` from `at` (at most `FAN_AHEAD`).
    #[inline(always)]
    fn move_room(&mut self, at: u8) -> &mut [u8; ROOM] {
        (&mut self.room[usize::from(at)..][..ROOM]).try_into().expect("a move's room")
    }

    /// The common move (cells and a kind; no bid, no placed piece; a
    /// notation of up to 127 bytes, cell names of up to 14, a message
    /// under 128 bytes) written in one pass: gathered with a cursor in
    /// the `room`, each cell name one 16-byte copy from the
    /// game's [`ShortNames`], then appended at once (32 or 64 bytes as one
    /// fixed-size copy for the usual move of under 30 or 60, cut to
    /// length), where the general way ([`Wire::message`], [`mv`]) goes
    /// through the reply's `Vec` field by field. False, with nothing
    /// written, for any other move. The bytes are [`mv`]'s
    /// (`tests::short_moves_are_the_general_ones`).
    fn short_move(&mut self, tag: u32, d: &Description, m: &MoveView, full: bool) -> bool {
        let MoveDetails { kind, from, to, path, passed, captured, bid, placed } = &m.details;
        let notation = m.notation.as_bytes();
        if bid.is_some() || placed.is_some() || tag >= 16 || notation.len() >= 0x80 {
            return false;
        }
        let names = d.short_names();
        let a = self.move_room(0);
        // The move's key and one-byte length go first, set at the end.
        let mut n = 2;
        if !notation.is_empty() {
            a[2] = (1 << 3 | LEN) as u8;
            a[3] = notation.len() as u8;
            copy_short(&mut a[4..], notation);
            n = 4 + notation.len() as u8;
        }
        let k = crate::convert::kind(*kind) as u8;
        if k != 0 {
            a[usize::from(n)] = (2 << 3) as u8;
            a[usize::from(n) + 1] = k;
            n += 2;
        }
        // One cell name: false when it does not fit or is not short.
        let mut put = |n: &mut u8, field: u32, c: u8| -> bool {
            if *n > MOVE_ROOM {
                return false;
            }
            match short_name(names, c) {
                Some(e) => {
                    *n = put_name(a, *n, (field << 3 | LEN) as u8, e);
                    true
                }
                None => false,
            }
        };
        let mut ok = from.is_none_or(|c| put(&mut n, 3, c)) && to.is_none_or(|c| put(&mut n, 4, c));
        for &c in path {
            ok = ok && put(&mut n, 5, c);
        }
        for &c in captured {
            ok = ok && put(&mut n, 6, c);
        }
        if full {
            for &c in passed {
                ok = ok && put(&mut n, 9, c);
            }
        }
        ok && self.append_gathered(n, tag)
    }

    /// Appends a move gathered in `room` by [`Wire::short_move`] or
    /// [`Wire::short_path`] (`n` bytes, the first two left for its key
    /// and one-byte length, set here): a fixed-size copy (no `memcpy`
    /// call of unknown length), then cut to the move. False, with nothing
    /// written, when the message is too long for a one-byte length.
    #[inline(always)]
    fn append_gathered(&mut self, n: u8, tag: u32) -> bool {
        if n - 2 >= 0x80 {
            return false;
        }
        self.room[0] = (tag << 3 | LEN) as u8;
        self.room[1] = n - 2;
        let len = self.buf.len() + usize::from(n);
        if n <= 32 {
            self.buf.extend_from_slice(&self.room[..32]);
        } else if n <= 64 {
            self.buf.extend_from_slice(&self.room[..64]);
        } else {
            self.buf.extend_from_slice(&self.room[..2 + 0x80]);
        }
        self.buf.truncate(len);
        true
    }

    /// A `GameState` field.
    pub fn state(&mut self, tag: u32, game: &dyn AnyGame, v: &StateView, form: i32, view: i32) {
        self.message(tag, |w| state(w, game, v, form, view));
    }
}

fn status_of(o: &Outcome) -> pb::GameStatus {
    match o {
        Outcome::Ongoing => pb::GameStatus::Ongoing,
        Outcome::Won(_) => pb::GameStatus::Won,
        Outcome::Drawn => pb::GameStatus::Drawn,
    }
}

/// A `Move` (as [`crate::convert::mv_in`] builds it).
pub fn mv(w: &mut Wire, d: &Description, m: &MoveView, full: bool) {
    let MoveDetails { kind, from, to, path, passed, captured, bid, placed } = &m.details;
    w.string(1, &m.notation);
    w.enumeration(2, crate::convert::kind(*kind) as i32);
    if let Some(c) = *from {
        w.cell_field(3, d, c);
    }
    if let Some(c) = *to {
        w.cell_field(4, d, c);
    }
    w.cells(5, d, path);
    w.cells(6, d, captured);
    w.optional(7, bid.map(u64::from));
    if let Some((owner, k)) = placed {
        w.message(8, |w| {
            if let Some(c) = *to {
                w.cell_field(1, d, c);
            }
            match owner {
                Owner::Player(p) => w.string(2, d.players[*p as usize].name),
                Owner::Neutral => {
                    // `{kind}s`: never empty, so always written.
                    w.key(2, LEN);
                    w.varint(k.len() as u64 + 1);
                    w.buf.extend_from_slice(k.as_bytes());
                    w.buf.push(b's');
                }
            }
            w.string(3, k);
        });
    }
    if full {
        w.cells(9, d, passed);
    }
}

fn result(w: &mut Wire, d: &Description, v: &StateView) {
    w.enumeration(1, status_of(&v.outcome) as i32);
    w.players(2, d, &v.result.winners);
    w.seats(3, d, &v.result.winner_seats);
    w.string(4, v.result.reason.unwrap_or_default());
}

fn standing(w: &mut Wire, d: &Description, m: &MatchStanding) {
    w.uint(1, m.game_number.into());
    w.uint(2, m.games_in_match.into());
    if !m.totals.is_empty() {
        // Packed, as proto3 repeated numbers are.
        w.message(3, |w| {
            for &t in &m.totals {
                w.varint(t.into());
            }
        });
    }
    w.uint(4, m.finished.into());
    w.players(5, d, &m.winners);
}

/// Which forms of the state a request asked for: (text, structured).
fn forms(form: i32) -> (bool, bool) {
    match pb::StateForm::try_from(form).unwrap_or_default() {
        pb::StateForm::Unspecified | pb::StateForm::Text => (true, false),
        pb::StateForm::Structured => (false, true),
        pb::StateForm::Both => (true, true),
    }
}

/// A `GameState` (as [`crate::convert::state_in`] builds it).
pub fn state(w: &mut Wire, game: &dyn AnyGame, v: &StateView, form: i32, view: i32) {
    let d = game.description();
    let (text, structured) = forms(form);
    let seats = d.seats();
    w.string(1, d.id);
    w.string(2, d.variant);
    w.string(3, v.to_move_name());
    if text {
        w.string(4, &v.position);
    }
    if structured {
        for p in &v.pieces {
            w.message(5, |w| {
                w.cell_field(1, d, p.cell);
                w.string(2, p.key);
                w.string(3, p.kind);
            });
        }
    }
    w.string(6, v.phase);
    if structured {
        for (k, val) in v.fields(d) {
            w.message(7, |w| {
                w.string(1, k);
                w.string(2, val);
            });
        }
    }
    w.string(8, seats.get(v.seat_to_move as usize).map_or("", |s| s.name));
    for (s, c) in seats.iter().zip(&v.seat_colours) {
        w.message(9, |w| {
            w.string(1, s.name);
            w.string(2, c.map_or("", |c| d.players[c as usize].name));
        });
    }
    w.string(10, v.role.unwrap_or_default());
    w.message(11, |w| result(w, d, v));
    if let Some(m) = &v.standing {
        w.message(12, |w| standing(w, d, m));
    }
    if is_full(view) {
        let k = game.keys(v);
        w.string(20, &k.position_key);
        w.uint(21, k.position_hash);
        w.string(22, &k.symmetry_key);
        w.uint(23, k.symmetry_hash);
    }
}

/// A `RenderBoardResponse` to be written: the picture's parts, copied
/// into the reply as they are (most of a picture is the board's cells,
/// drawn once for every picture of the board), then its size and the
/// state, written here.
pub struct PictureReply {
    drawing: crate::render::Drawing,
    /// The fields after the picture: its width and height, and the state.
    rest: Vec<u8>,
}

impl PictureReply {
    /// The reply's length in bytes.
    pub fn encoded_len(&self) -> usize {
        let svg = self.drawing.svg_len();
        encoding::key_len(1) + encoding::encoded_len_varint(svg as u64) + svg + self.rest.len()
    }

    /// Writes the reply: the SVG (field 1) part by part, then the rest.
    pub fn write_to(&self, out: &mut impl bytes::BufMut) {
        encoding::encode_key(1, encoding::WireType::LengthDelimited, out);
        encoding::encode_varint(self.drawing.svg_len() as u64, out);
        for part in self.drawing.parts() {
            out.put_slice(part.as_bytes());
        }
        out.put_slice(&self.rest);
    }
}

/// A `RenderBoardResponse`: the picture, its size, and the state in the
/// form and view the request asked for.
pub fn render_board(
    game: &dyn AnyGame,
    v: &StateView,
    drawing: crate::render::Drawing,
    r: &pb::RenderBoardRequest,
) -> PictureReply {
    let mut w = Wire::with_capacity(1024);
    w.uint(2, u64::from(drawing.width));
    w.uint(3, u64::from(drawing.height));
    w.state(4, game, v, r.state_form, r.view);
    PictureReply { drawing, rest: w.buf }
}

/// A `GenerateMovesResponse`.
pub fn generate_moves(
    game: &dyn AnyGame,
    view: &StateView,
    moves: &[MoveView],
    next_cells: &[u8],
    complete: bool,
    r: &pb::GenerateMovesRequest,
) -> Vec<u8> {
    let d = game.description();
    let full = is_full(r.view);
    let mut w = Wire::with_capacity(256 + 40 * moves.len());
    for m in moves {
        w.mv(1, d, m, full);
    }
    w.message(2, |w| state(w, game, view, r.state_form, r.view));
    w.cells(3, d, next_cells);
    w.uint(4, complete.into());
    w.buf
}

/// An `ApplyMoveResponse`.
pub fn apply_move(game: &dyn AnyGame, a: &parlour_engine::front::ApplyView, r: &pb::ApplyMoveRequest) -> Vec<u8> {
    let d = game.description();
    let full = is_full(r.view);
    let mut w = Wire::with_capacity(512);
    w.message(1, |w| state(w, game, &a.state, r.state_form, r.view));
    w.mv(2, d, &a.played, full);
    w.cells(3, d, &a.played.details.captured);
    w.string(4, a.mover_name);
    let status = status_of(&a.state.outcome);
    w.enumeration(5, status as i32);
    w.players(6, d, a.state.outcome.winners());
    w.uint(7, (status != pb::GameStatus::Ongoing).into());
    w.string(8, a.state.result.reason.unwrap_or_default());
    for m in a.next_moves.iter().flatten() {
        w.mv(9, d, m, full);
    }
    w.string(10, d.seats().get(a.mover_seat as usize).map_or("", |s| s.name));
    w.buf
}

fn player(w: &mut Wire, d: &Description, m: &PlayerMeasures, full: bool) {
    w.string(1, d.players[m.player as usize].name);
    if full {
        for g in &m.groups {
            w.message(2, |w| w.cells(1, d, g));
        }
    }
    w.uint(3, m.group_count() as u64);
    w.optional(4, m.pieces.map(u64::from));
    w.optional(5, m.captured.map(u64::from));
    w.optional(6, m.bait.map(u64::from));
    w.optional(7, m.kings.map(u64::from));
    w.optional(8, m.distance_to_goal.map(u64::from));
    w.optional(9, m.penalty.map(u64::from));
    w.optional(10, m.one_move_from_connecting.map(u64::from));
    w.optional(11, m.moves_made.map(u64::from));
    w.optional(12, m.bid.map(u64::from));
    w.optional(13, m.match_penalty.map(u64::from));
}

/// An `EvaluateResponse` (as [`crate::convert::evaluation`] builds it).
pub fn evaluate(game: &dyn AnyGame, v: &StateView, e: &Evaluation, r: &pb::EvaluateRequest) -> Vec<u8> {
    let d = game.description();
    let full = is_full(r.view);
    let mut w = Wire::with_capacity(512);
    w.enumeration(1, crate::convert::status(e.status) as i32);
    w.players(2, d, &e.winners);
    for m in &e.players {
        w.message(3, |w| player(w, d, m, full));
    }
    if let Some(m) = &e.match_standing {
        w.message(4, |w| standing(w, d, m));
    }
    w.message(5, |w| state(w, game, v, r.state_form, r.view));
    w.string(6, v.result.reason.unwrap_or_default());
    w.seats(7, d, &v.result.winner_seats);
    w.buf
}

#[cfg(test)]
mod tests {
    use super::super::{applied, apply_reply, evaluated, generate_bytes, generate_reply, moves_of};
    use super::*;
    use parlour_engine::front::MoveInput;
    use parlour_engine::{Record, Registry};
    use prost::Message;

    /// Text-form states of `game`: the start, its benchmark positions, and
    /// the positions of a walk through varied moves to the end or 60 plies.
    fn states(game: &dyn AnyGame) -> Vec<pb::GameState> {
        let d = game.description();
        let as_state = |position: String| pb::GameState {
            game: d.id.to_string(),
            variant: d.variant.to_string(),
            position,
            ..Default::default()
        };
        let mut out = vec![as_state(game.start().position)];
        for e in parlour_engine::data::lines(parlour_engine::data::POSITIONS) {
            let f: Vec<&str> = e.text.split('|').map(str::trim).collect();
            if f.len() >= 6 && f[0] == d.id && f[1] == d.variant {
                out.push(as_state(f[5].to_string()));
            }
        }
        let mut position = game.start().position;
        for ply in 0..60 {
            let (_, moves) = game.moves(Record::parse(&position).unwrap()).unwrap();
            if moves.is_empty() {
                break;
            }
            let m = &moves[(ply * 7 + 3) % moves.len()];
            let a = game.apply(Record::parse(&position).unwrap(), &MoveInput::Notation(m.notation.clone())).unwrap();
            position = a.state.position;
            out.push(as_state(position.clone()));
        }
        out
    }

    /// Every view and state form, the defaults (0) included.
    const VIEWS: [i32; 3] = [0, pb::ReplyView::Basic as i32, pb::ReplyView::Full as i32];
    const FORMS: [i32; 4] =
        [0, pb::StateForm::Text as i32, pb::StateForm::Structured as i32, pb::StateForm::Both as i32];

    fn check_generate(game: &dyn AnyGame, r: &pb::GenerateMovesRequest) -> Vec<MoveView> {
        let state = r.state.as_ref().unwrap();
        let Ok(m) = moves_of(game, state, r) else { return vec![] };
        let lean = generate_moves(game, &m.view, &m.moves, &m.next_cells, m.complete, r);
        let prost = generate_reply(game, &m, r).encode_to_vec();
        assert_eq!(lean, prost, "GenerateMoves {r:?}");
        assert_eq!(generate_bytes(game, state, r).unwrap(), prost, "GenerateMoves (lean path) {r:?}");
        m.moves
    }

    #[test]
    fn same_bytes_as_prost() {
        let registry = Registry::new();
        let mut checked = 0;
        for game in registry.all() {
            for (i, state) in states(game).into_iter().enumerate() {
                // Every view and form for the first states, one a state after.
                let combos: Vec<(i32, i32)> = if i < 4 {
                    VIEWS.iter().flat_map(|&v| FORMS.iter().map(move |&f| (v, f))).collect()
                } else {
                    vec![(VIEWS[i % 3], FORMS[i % 4])]
                };
                for (view, state_form) in combos {
                    let r =
                        pb::GenerateMovesRequest { state: Some(state.clone()), chosen_cells: vec![], view, state_form };
                    let moves = check_generate(game, &r);
                    // Click-by-click entry: the first landing of a move.
                    let d = game.description();
                    if let Some(m) = moves.iter().find(|m| !m.details.path.is_empty()) {
                        let chosen = vec![d.cell_name(m.details.path[0]).to_string()];
                        check_generate(game, &pb::GenerateMovesRequest { chosen_cells: chosen, ..r.clone() });
                    }
                    let r = pb::EvaluateRequest { state: Some(state.clone()), view, state_form };
                    if let Ok((v, e)) = evaluated(game, &state, view, state_form) {
                        let pb = crate::convert::evaluation(game, &v, &e, view, state_form);
                        assert_eq!(evaluate(game, &v, &e, &r), pb.encode_to_vec(), "Evaluate {r:?}");
                    }
                    for (k, m) in moves.iter().take(3).enumerate() {
                        let r = pb::ApplyMoveRequest {
                            state: Some(state.clone()),
                            r#move: Some(pb::Move { notation: m.notation.clone(), ..Default::default() }),
                            include_next_moves: k == 1,
                            view,
                            state_form,
                        };
                        let a = applied(game, &state, &r).unwrap();
                        let pb = apply_reply(game, &a, &r);
                        assert_eq!(apply_move(game, &a, &r), pb.encode_to_vec(), "ApplyMove {r:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "only {checked} ApplyMove replies compared");
    }

    #[tokio::test]
    async fn list_games_bytes_are_the_trait_replys() {
        use crate::pb::rules_server::Rules;
        let svc = super::super::RulesService::new(std::sync::Arc::new(Registry::new()), Default::default());
        let lean = svc.list_games_bytes(tonic::Request::new(pb::ListGamesRequest {})).await.unwrap().into_inner();
        let prost = svc.list_games(tonic::Request::new(pb::ListGamesRequest {})).await.unwrap().into_inner();
        assert_eq!(lean, super::super::lean::framed(&prost.encode_to_vec()));
        assert!(!prost.games.is_empty());
    }

    /// An error's details, decoded: `ErrorInfo`'s metadata is a map,
    /// encoded in no fixed order, so two replies are compared by what they
    /// say, not byte for byte.
    #[allow(clippy::type_complexity)]
    fn details(s: &tonic::Status) -> (Option<(String, String, Vec<(String, String)>)>, Option<Vec<(String, String)>>) {
        use tonic_types::StatusExt;
        let d = s.get_error_details();
        let info = d.error_info().map(|i| {
            let mut m: Vec<_> = i.metadata.clone().into_iter().collect();
            m.sort();
            (i.reason.clone(), i.domain.clone(), m)
        });
        let bad = d
            .bad_request()
            .map(|b| b.field_violations.iter().map(|v| (v.field.clone(), v.description.clone())).collect());
        (info, bad)
    }

    /// A lean reply against the trait's for the same request: the same
    /// bytes as prost's encoding, or the same error (code, message and
    /// details). Whether both answered.
    fn same_reply<B: AsRef<[u8]>, M: Message>(
        lean: Result<tonic::Response<B>, tonic::Status>,
        prost: Result<tonic::Response<M>, tonic::Status>,
        what: &str,
    ) -> bool {
        match (lean, prost) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.into_inner().as_ref(), b.into_inner().encode_to_vec(), "{what}");
                true
            }
            (Err(a), Err(b)) => {
                assert_eq!((a.code(), a.message()), (b.code(), b.message()), "{what}");
                assert_eq!(details(&a), details(&b), "{what}");
                false
            }
            (a, b) => panic!("{what}: lean {:?}, trait {:?}", a.map(|_| ()), b.map(|_| ())),
        }
    }

    #[tokio::test]
    async fn describe_game_bytes_are_the_trait_replys() {
        use crate::pb::rules_server::Rules;
        let svc = super::super::RulesService::new(std::sync::Arc::new(Registry::new()), Default::default());
        let registry = Registry::new();
        let mut asks: Vec<(String, String)> =
            registry.all().map(|g| (g.description().id.to_string(), g.description().variant.to_string())).collect();
        // The default variant by an empty name, and refusals.
        asks.extend(
            [("squeeze", ""), ("scala", ""), ("", ""), ("chess", ""), ("scala", "nope")]
                .map(|(g, v)| (g.into(), v.into())),
        );
        for (game, variant) in asks {
            let r = || pb::DescribeGameRequest { game: game.clone(), variant: variant.clone() };
            // Twice: built, then from the cache.
            for _ in 0..2 {
                // The lean reply is kept behind its gRPC header (`lean::framed`).
                let lean = svc.describe_game_bytes(tonic::Request::new(Box::new(r()))).await.map(|reply| {
                    reply.map(|framed| {
                        let len = u32::from_be_bytes(framed[1..5].try_into().unwrap()) as usize;
                        assert_eq!((framed[0], len), (0, framed.len() - 5), "{game} {variant}: the header");
                        framed.slice(5..)
                    })
                });
                let trait_reply = svc.describe_game(tonic::Request::new(r())).await;
                same_reply(lean, trait_reply, &format!("{game} {variant}"));
            }
        }
    }

    #[tokio::test]
    async fn new_game_bytes_are_the_trait_replys() {
        use crate::pb::rules_server::Rules;
        let svc = super::super::RulesService::new(std::sync::Arc::new(Registry::new()), Default::default());
        let registry = Registry::new();
        let mut asks = Vec::new();
        for game in registry.all() {
            let d = game.description();
            let (id, variant) = (d.id.to_string(), d.variant.to_string());
            let start = game.start();
            let ask = |position: &str, previous_game: Option<pb::GameState>| pb::NewGameRequest {
                game: id.clone(),
                variant: variant.clone(),
                position: position.into(),
                previous_game,
                ..Default::default()
            };
            asks.push(ask("", None));
            asks.push(ask(&start.position, None));
            asks.push(ask("to_move=nobody", None));
            // The next game of a match (refused where the game has none).
            let prev = crate::convert::state(game, &start);
            asks.push(pb::NewGameRequest {
                game: String::new(),
                variant: String::new(),
                ..ask("", Some(prev.clone()))
            });
            asks.push(ask("x=1", Some(prev)));
        }
        asks.push(pb::NewGameRequest { game: "chess".into(), ..Default::default() });
        let mut compared = 0;
        for base in asks {
            for form in 0..4 {
                for view in 0..3 {
                    let r = pb::NewGameRequest { state_form: form, view, ..base.clone() };
                    let lean = svc.new_game_bytes(tonic::Request::new(Box::new(r.clone()))).await;
                    let trait_reply = svc.new_game(tonic::Request::new(r.clone())).await;
                    compared += usize::from(same_reply(lean, trait_reply, &format!("{r:?}")));
                }
            }
        }
        assert!(compared > 200, "only {compared} replies compared");
    }

    #[tokio::test]
    async fn render_board_bytes_are_the_trait_replys() {
        use crate::pb::rules_server::Rules;
        let svc = super::super::RulesService::new(std::sync::Arc::new(Registry::new()), Default::default());
        let registry = Registry::new();
        let mut compared = 0;
        for game in registry.all() {
            let d = game.description();
            let mut states = vec![crate::convert::state(game, &game.start())];
            for e in parlour_engine::data::lines(parlour_engine::data::POSITIONS) {
                let f: Vec<&str> = e.text.split('|').map(str::trim).collect();
                if f.len() >= 6 && f[0] == d.id && f[1] == d.variant {
                    states.push(pb::GameState {
                        game: d.id.into(),
                        variant: d.variant.into(),
                        position: f[5].into(),
                        ..Default::default()
                    });
                }
            }
            let (a, b) = (d.cell_name(0).to_string(), d.cell_name(1).to_string());
            let mv =
                pb::Move { from_cell: a.clone(), to_cell: b.clone(), captured: vec![b.clone()], ..Default::default() };
            for state in states {
                let asks = [
                    pb::RenderBoardRequest { state: Some(state.clone()), ..Default::default() },
                    pb::RenderBoardRequest {
                        state: Some(state.clone()),
                        last_move: Some(mv.clone()),
                        highlight: vec![a.clone()],
                        theme: "dark".into(),
                        width: 640,
                        cell_names: true,
                        view: pb::ReplyView::Full as i32,
                        state_form: pb::StateForm::Both as i32,
                    },
                    pb::RenderBoardRequest {
                        state: Some(state.clone()),
                        view: pb::ReplyView::Basic as i32,
                        state_form: pb::StateForm::Structured as i32,
                        ..Default::default()
                    },
                    pb::RenderBoardRequest { state: Some(state.clone()), theme: "neon".into(), ..Default::default() },
                    pb::RenderBoardRequest {
                        state: Some(state.clone()),
                        highlight: vec!["zz9".into()],
                        ..Default::default()
                    },
                    pb::RenderBoardRequest {
                        state: Some(pb::GameState { position: "to_move=nobody".into(), ..state.clone() }),
                        ..Default::default()
                    },
                ];
                for r in asks {
                    let kept = super::super::kept::decode::<pb::RenderBoardRequest>(&r.encode_to_vec()[..]).unwrap();
                    // The reply as the encoder writes it, part by part,
                    // into a buffer of the length it says.
                    let lean = svc.render_board_bytes(tonic::Request::new(kept)).await.map(|p| {
                        p.map(|p| {
                            let mut out = Vec::new();
                            p.write_to(&mut out);
                            assert_eq!(out.len(), p.encoded_len());
                            out
                        })
                    });
                    let trait_reply = svc.render_board(tonic::Request::new(r.clone())).await;
                    compared += usize::from(same_reply(lean, trait_reply, &format!("{r:?}")));
                }
            }
        }
        assert!(compared >= 40, "only {compared} pictures compared");
    }

    /// The one-pass writer of common moves against the general one, for
    /// every move of every state of every game, both views, and moves made
    /// up to reach its limits (long notations and paths, many captures).
    #[test]
    fn short_moves_are_the_general_ones() {
        let registry = Registry::new();
        let mut short = 0;
        // One wire for all the moves too (its `room` kept from move to
        // move): the moves' bytes one after another.
        let (mut one, mut all) = (Wire::default(), Vec::new());
        let mut check = |d: &Description, m: &MoveView, full: bool| {
            let mut general = Wire::default();
            general.message(1, |w| mv(w, d, m, full));
            one.mv(1, d, m, full);
            all.extend_from_slice(&general.buf);
            let mut w = Wire::default();
            if w.short_move(1, d, m, full) {
                short += 1;
            }
            w.buf.clear();
            w.mv(1, d, m, full);
            assert_eq!(w.buf, general.buf, "{m:?} full {full}");
            let mut expected = Vec::new();
            prost::encoding::message::encode(
                1,
                &crate::convert::mv_in(d, m, if full { pb::ReplyView::Full as i32 } else { 0 }),
                &mut expected,
            );
            assert_eq!(w.buf, expected, "{m:?} full {full} (prost)");
        };
        for game in registry.all() {
            let d = game.description();
            for state in states(game) {
                let Ok((_, moves)) = game.moves(Record::parse(&state.position).unwrap()) else { continue };
                for m in &moves {
                    for full in [false, true] {
                        check(d, m, full);
                        // Stretched: a long notation, a long path, captures.
                        let mut long = m.clone();
                        long.notation = "x".repeat(m.notation.len() * 9 % 140);
                        let cells: Vec<u8> = (0..d.cells.len() as u8).step_by(3).collect();
                        long.details.path = cells.iter().copied().take(m.notation.len() * 3).collect();
                        long.details.captured = cells.iter().rev().copied().take(m.notation.len()).collect();
                        check(d, &long, full);
                    }
                }
            }
        }
        assert!(one.buf == all, "one wire for all the moves");
        assert!(short > 10_000, "only {short} moves took the short way");
    }

    /// A move handed over by its cells ([`Described::Between`]) is written
    /// as [`mv`] writes its view, on every board: every pair of cells
    /// (every fifth on the larger boards), captures of none to many (a
    /// move too long for the short way), every kind, both views.
    #[test]
    fn between_moves_are_the_general_ones() {
        use parlour_engine::MoveKind::*;
        let registry = Registry::new();
        let mut short = 0;
        for game in registry.all() {
            let d = game.description();
            let n = d.cells.len() as u8;
            let every = if n > 70 { 5 } else { 1 };
            // One reply's wire for all the moves too (its `room` kept
            // from move to move): the moves' bytes one after another.
            let (mut one, mut all) = (Wire::default(), Vec::new());
            for from in (0..n).step_by(every) {
                for to in (0..n).step_by(every) {
                    let k = (usize::from(from) * 7 + usize::from(to)) % 10;
                    let kind = [Slide, Jump, Step, Straight, Squeeze, Place, Bid, Action, Pass, Resign][k];
                    let some = (1u128 << from | 1u128 << to) ^ (1u128 << ((from ^ to) % n));
                    let many = (0..n).step_by(2).fold(0u128, |m, c| m | 1 << c);
                    for captured in [0, 1u128 << to, some, many] {
                        let sep = [b'-', b'x', b'@'][usize::from(to) % 3];
                        let m = Described::Between { kind, from, to, sep, captured };
                        let v = m.to_view(|c| d.cell_name(c));
                        for full in [false, true] {
                            let mut general = Wire::default();
                            general.message(1, |w| mv(w, d, &v, full));
                            let mut w = Wire::default();
                            w.described(1, d, m, full);
                            assert_eq!(w.buf, general.buf, "{m:?} full {full}");
                            one.described(1, d, m, full);
                            all.extend_from_slice(&general.buf);
                            let mut w = Wire::default();
                            short += usize::from(w.short_between(1, d, kind, [from, to], sep, captured));
                        }
                    }
                }
            }
            assert!(one.buf == all, "{}: one wire for all the moves", d.id);
        }
        assert!(short > 10_000, "only {short} moves took the short way");
    }

    /// A piece's moves handed over at once ([`Described::Fan`]) are
    /// written as its moves one by one ([`Described::each`]) are, on every
    /// board: from every cell, to no cell, one, some and all, four pairs
    /// of kinds and four sets of the second kind's cells, both views, into
    /// a fresh wire and into one kept for all the fans.
    #[test]
    fn fans_are_their_moves() {
        let registry = Registry::new();
        let mut moves = 0;
        for game in registry.all() {
            moves += fans_of(game.description());
        }
        assert!(moves > 10_000, "only {moves} moves");
    }

    /// [`fans_are_their_moves`] on a board whose names are 1 to 16 bytes
    /// long (no game's are over 3): `from`'s name too long to keep a move
    /// of (over 10), `to`'s too long to keep (over 8), to gather (over
    /// 14), and every length between.
    #[test]
    fn fans_with_names_of_every_length_are_their_moves() {
        let registry = Registry::new();
        let game = registry.all().find(|g| g.description().cells.len() >= 100).expect("a board of 100 cells");
        // A copy made before its names' table is: worked out from the new names.
        let mut d = game.description().clone();
        for (i, cell) in d.cells.iter_mut().enumerate() {
            let width = 1 + (i * 7) % 16;
            cell.name = format!("{i:x>width$}");
        }
        for (c, cell) in d.cells.iter().enumerate() {
            let e = d.short_names()[c][1];
            assert_eq!(usize::from(e), if cell.name.len() <= 14 { cell.name.len() } else { usize::from(LONG_NAME) });
        }
        assert!(fans_of(&d) > 10_000);
    }

    /// Fans of one kind each, one after another from the same cell (as
    /// Shoulder to Shoulder hands over a piece's straight moves, then its
    /// squeezes), whose kept moves the next takes over with its kind
    /// written in: every kind after every other, `others` empty, all or
    /// some, fans of two kinds, another `sep` and other cells in
    /// between, both views, on every board and on one whose names are 1
    /// to 16 bytes long: the bytes of their moves written one by one.
    #[test]
    fn fans_of_one_cell_one_after_another_are_their_moves() {
        use parlour_engine::MoveKind::*;
        let registry = Registry::new();
        let mut boards: Vec<Description> = registry.all().map(|g| g.description().clone()).collect();
        let mut long = boards.iter().find(|d| d.cells.len() >= 100).expect("a board of 100 cells").clone();
        for (i, cell) in long.cells.iter_mut().enumerate() {
            let width = 1 + (i * 7) % 16;
            cell.name = format!("{i:x>width$}");
        }
        boards.push(long);
        let kinds = [Slide, Jump, Step, Straight, Squeeze, Place, Bid, Action, Pass];
        let mut moves = 0u32;
        for d in &boards {
            let n = d.cells.len() as u8;
            let all = if n >= 128 { u128::MAX } else { (1u128 << n) - 1 };
            for full in [false, true] {
                let (mut one, mut apart) = (Wire::default(), Wire::default());
                for from in 0..n {
                    let mut fans = Vec::new();
                    for (i, &kind) in kinds.iter().enumerate() {
                        let to = (0..n)
                            .filter(|&c| c != from && (u32::from(c) * (3 + i as u32) + u32::from(from)) % 5 < 2)
                            .fold(0u128, |m, c| m | 1 << c);
                        let other = kinds[(i + 1) % kinds.len()];
                        // One kind (`kind` and `other` the same), whatever `others`.
                        fans.push(Described::Fan { from, to, sep: b'-', kind, other: kind, others: 0 });
                        fans.push(Described::Fan { from, to: to & !1, sep: b'-', kind: other, other, others: all });
                        fans.push(Described::Fan { from, to, sep: b'-', kind, other: kind, others: to & 0x5555 });
                        if i % 4 == 3 {
                            // A fan of two kinds, another `sep`, another cell between.
                            fans.push(Described::Fan { from, to, sep: b'-', kind, other, others: to & 0x5555 });
                            fans.push(Described::Fan { from, to, sep: b'x', kind, other: kind, others: 0 });
                            let next = (from + 1) % n;
                            fans.push(Described::Fan { from: next, to, sep: b'-', kind, other: kind, others: 0 });
                        }
                    }
                    for m in fans {
                        one.described(1, d, m, full);
                        m.each(|m| apart.described(1, d, m, full));
                        if let Described::Fan { to, .. } = m {
                            moves += to.count_ones();
                        }
                    }
                }
                assert!(one.buf == apart.buf, "{}: full {full}", d.id);
            }
        }
        assert!(moves > 100_000, "only {moves} moves");
    }

    /// Fans from every cell of `d`'s board to no cell, one, some and all,
    /// four pairs of kinds and four sets of the second kind's cells, both
    /// views, into a fresh wire and into one kept for all the fans: the
    /// bytes of their moves written one by one. The moves written.
    fn fans_of(d: &Description) -> u32 {
        use parlour_engine::MoveKind::*;
        let mut moves = 0;
        let n = d.cells.len() as u8;
        let all = if n >= 128 { u128::MAX } else { (1u128 << n) - 1 };
        let (mut one, mut apart) = (Wire::default(), Wire::default());
        for from in 0..n {
            let some = (0..n).filter(|&c| (u32::from(c) * 5 + u32::from(from)) % 7 < 3).fold(0u128, |m, c| m | 1 << c);
            for (i, to) in [0, 1u128 << (n - 1 - from), some, all & !(1u128 << from), all].into_iter().enumerate() {
                let kinds =
                    [[Slide, Jump], [Straight, Straight], [Jump, Slide], [Squeeze, Pass]][(i + usize::from(from)) % 4];
                let others = [0, some, !some, all][usize::from(from) % 4];
                let sep = [b'-', b'x'][i % 2];
                let m = Described::Fan { from, to, sep, kind: kinds[0], other: kinds[1], others };
                for full in [false, true] {
                    let mut w = Wire::default();
                    w.described(1, d, m, full);
                    let mut each = Wire::default();
                    m.each(|m| each.described(1, d, m, full));
                    assert!(w.buf == each.buf, "{}: {m:?} full {full}", d.id);
                    one.described(1, d, m, full);
                    m.each(|m| apart.described(1, d, m, full));
                    moves += to.count_ones();
                }
            }
        }
        assert!(one.buf == apart.buf, "{}: one wire for all the fans", d.id);
        moves
    }

    /// A move handed over with its path ([`Described::Path`]) is written
    /// as [`mv`] writes its view, on every board: paths of one cell to
    /// more than fit the short way (cells spread over the board, each
    /// start), captures of none to many, every kind, both views.
    #[test]
    fn path_moves_are_the_general_ones() {
        use parlour_engine::MoveKind::*;
        let registry = Registry::new();
        let (mut short, mut long) = (0, 0);
        for game in registry.all() {
            let d = game.description();
            let n = d.cells.len() as u8;
            let (mut one, mut all) = (Wire::default(), Vec::new());
            for start in 0..n {
                for len in [1usize, 2, 3, 4, 7, 12, 20] {
                    let path: Vec<u8> =
                        (0..len).map(|i| ((usize::from(start) + i * 7) % usize::from(n)) as u8).collect();
                    let k = (usize::from(start) * 3 + len) % 10;
                    let kind = [Slide, Jump, Step, Straight, Squeeze, Place, Bid, Action, Pass, Resign][k];
                    let many = (0..n).step_by(3).fold(0u128, |m, c| m | 1 << c);
                    for captured in [0, 1u128 << start, many] {
                        let sep = [b'-', b'x', b'@'][usize::from(start) % 3];
                        let m = Described::Path { kind, path: &path, sep, captured };
                        let v = m.to_view(|c| d.cell_name(c));
                        assert_eq!(v.details.path, path);
                        for full in [false, true] {
                            let mut general = Wire::default();
                            general.message(1, |w| mv(w, d, &v, full));
                            let mut w = Wire::default();
                            w.described(1, d, m, full);
                            assert_eq!(w.buf, general.buf, "{m:?} full {full}");
                            let mut expected = Vec::new();
                            let pb_view = if full { pb::ReplyView::Full as i32 } else { 0 };
                            prost::encoding::message::encode(1, &crate::convert::mv_in(d, &v, pb_view), &mut expected);
                            assert_eq!(w.buf, expected, "{m:?} full {full} (prost)");
                            one.described(1, d, m, full);
                            all.extend_from_slice(&expected);
                            if let [from, via @ .., to] = path.as_slice() {
                                let mut w = Wire::default();
                                if w.short_path(1, d, kind, [*from, *to], via, sep, captured) {
                                    short += 1;
                                } else {
                                    long += 1;
                                }
                            }
                        }
                    }
                }
            }
            assert!(one.buf == all, "{}: one wire for all the moves", d.id);
        }
        assert!(short > 5_000 && long > 1_000, "{short} paths took the short way, {long} the general one");
    }

    #[test]
    fn elements_of_every_length_are_proto_strings() {
        for tag in [1u32, 9, 15, 16, 20] {
            for len in (0..20).chain([127, 128, 300]) {
                let s: String = (0..len).map(|i| (b'a' + (i % 26) as u8) as char).collect();
                let mut w = Wire::default();
                w.buf.push(0xEE);
                w.element(tag, &s);
                let mut expected = vec![0xEE];
                prost::encoding::string::encode(tag, &s, &mut expected);
                assert_eq!(w.buf, expected, "tag {tag}, length {len}");
            }
        }
    }

    #[test]
    fn long_nested_messages_get_wide_lengths() {
        for len in [0usize, 1, 127, 128, 300, 16_383, 16_384, 70_000] {
            let mut w = Wire::default();
            w.message(5, |w| w.buf.extend(std::iter::repeat_n(7u8, len)));
            let mut expected = Vec::new();
            prost::encoding::bytes::encode(5, &vec![7u8; len], &mut expected);
            assert_eq!(w.buf, expected, "length {len}");
        }
    }
}
