//! The position text shared by every game: `key=value` pairs separated by
//! `;`, spaces around them ignored, lists comma-separated.
//!
//! A [`Record`] is the parsed form: an ordered list of pairs. Games read a
//! record with [`Record::take`] and friends and reject what is left with
//! [`Record::finish`], so an unknown key is always named in the error.

use crate::error::RulesError;
use std::sync::OnceLock;

/// An ordered list of `key=value` pairs: a position in its text form.
///
/// A record made from a position's canonical text ([`Record::of_text`],
/// what every [`crate::front::StateView`] carries) keeps the text and
/// splits it into pairs only when they are first read: most calls print a
/// position and never read its pairs (issue #25).
#[derive(Clone, Default)]
pub struct Record {
    entries: OnceLock<Vec<(String, String)>>,
    /// The canonical text the pairs are split from, while it still prints
    /// them (cleared by the first change).
    text: Option<String>,
}

/// The longest position text accepted, in bytes. No game needs more than a
/// few hundred; this bounds the work a hostile request can cause.
pub const MAX_POSITION_LEN: usize = 16 * 1024;

/// The most `key=value` pairs a position may have. No game has more than a
/// dozen keys; this keeps every look-up cheap whatever a client sends.
pub const MAX_KEYS: usize = 64;

impl Record {
    pub fn new() -> Self {
        // Room for every game's keys (at most eight).
        Record { entries: OnceLock::from(Vec::with_capacity(8)), text: None }
    }

    /// The record of a position's canonical text, as a game writes it
    /// ([`crate::game::Game::write_position`]): kept as text, split into
    /// pairs when first read. Only for text a game printed: text that does
    /// not parse reads as no pairs.
    pub fn of_text(text: String) -> Self {
        Record { entries: OnceLock::new(), text: Some(text) }
    }

    fn list(&self) -> &Vec<(String, String)> {
        self.entries.get_or_init(|| match &self.text {
            Some(t) => Pairs::parse(t).map(|p| p.to_entries()).unwrap_or_default(),
            None => Vec::new(),
        })
    }

    fn list_mut(&mut self) -> &mut Vec<(String, String)> {
        self.list();
        self.text = None;
        self.entries.get_mut().expect("the pairs were split above")
    }

    /// Parses position text. Rejects empty keys, a pair without `=`, a key
    /// given twice, and text longer than [`MAX_POSITION_LEN`] (as
    /// [`Pairs::parse`], which it is, owned).
    pub fn parse(text: &str) -> Result<Record, RulesError> {
        Ok(Pairs::parse(text)?.to_record())
    }

    /// Adds a pair; a key given twice is an error naming it.
    pub fn insert(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let entries = self.list_mut();
        if entries.len() >= MAX_KEYS {
            return Err(too_many_keys());
        }
        if entries.iter().any(|(k, _)| k == key) {
            return Err(given_twice(key));
        }
        entries.push((key.to_string(), value.to_string()));
        Ok(())
    }

    /// Appends a pair when printing (no duplicate check: printers are ours).
    pub fn push(&mut self, key: &str, value: impl Into<String>) {
        self.list_mut().push((key.to_string(), value.into()));
    }

    /// The value of `key`, without consuming it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.list().iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Removes `key` and returns its value.
    pub fn take(&mut self, key: &str) -> Option<String> {
        let entries = self.list_mut();
        let i = entries.iter().position(|(k, _)| k == key)?;
        Some(entries.remove(i).1)
    }

    /// Removes `key`; an error naming it when it is missing.
    #[inline]
    pub fn require(&mut self, key: &str) -> Result<String, RulesError> {
        self.take(key).ok_or_else(|| missing(key))
    }

    /// Removes `key` and parses it as an unsigned number (`default` when absent).
    #[inline]
    pub fn take_u32(&mut self, key: &str, default: u32) -> Result<u32, RulesError> {
        match self.take(key) {
            None => Ok(default),
            Some(v) => parse_u32(key, &v),
        }
    }

    /// Errors naming the first key nobody took: an unknown key.
    pub fn finish(self, allowed: &[&str]) -> Result<(), RulesError> {
        match self.list().first() {
            Some((k, _)) => Err(unknown_key(k, allowed)),
            None => Ok(()),
        }
    }

    pub fn entries(&self) -> &[(String, String)] {
        self.list()
    }

    pub fn into_entries(mut self) -> Vec<(String, String)> {
        std::mem::take(self.list_mut())
    }

    pub fn is_empty(&self) -> bool {
        self.list().is_empty()
    }

    /// The record as position text (what `to_string` prints), written into
    /// one `String` of the exact length (a record of a game's text: that
    /// text).
    pub fn text(&self) -> String {
        if let Some(t) = &self.text {
            return t.clone();
        }
        let entries = self.list();
        let len: usize = entries.iter().map(|(k, v)| k.len() + v.len() + 3).sum();
        let mut out = String::with_capacity(len);
        let mut sink = TextSink::new(&mut out);
        for (k, v) in entries {
            sink.pair_str(k, v);
        }
        out
    }
}

impl PartialEq for Record {
    fn eq(&self, other: &Record) -> bool {
        self.list() == other.list()
    }
}

impl Eq for Record {}

impl std::fmt::Debug for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Record").field("entries", self.list()).finish()
    }
}

/// A key's length and first and last bytes in one word: keys that differ
/// in any of them are not the same (most keys a look-up passes over).
#[inline]
fn key_tag(k: &str) -> u32 {
    match k.as_bytes() {
        [] => 0,
        [a, .., b] => k.len() as u32 & 0xFFFF | u32::from(*a) << 16 | u32::from(*b) << 24,
        [a] => 1 | u32::from(*a) << 16 | u32::from(*a) << 24,
    }
}

/// `a == b`, compared in line: keys and names are a few bytes, shorter
/// than a call to `memcmp` costs. Up to 16 bytes as two words of each
/// (overlapping when shorter than two), where a byte at a time cost some
/// eight instructions a byte (issue #25: a position's keys are read every
/// call); a constant `b`'s words are worked out at compile time.
#[inline]
fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let u64_at = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or([0; 8]));
    let u32_at = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().unwrap_or([0; 4]));
    match n {
        8..=16 => u64_at(a, 0) == u64_at(b, 0) && u64_at(a, n - 8) == u64_at(b, n - 8),
        4..=7 => u32_at(a, 0) == u32_at(b, 0) && u32_at(a, n - 4) == u32_at(b, n - 4),
        0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        _ => a == b,
    }
}

fn too_many_keys() -> RulesError {
    RulesError::bad_position(
        "position",
        format!("the position has more than {MAX_KEYS} keys; no game has nearly that many"),
    )
}

fn given_twice(key: &str) -> RulesError {
    RulesError::bad_position(key, format!("key `{key}` is given twice"))
}

fn missing(key: &str) -> RulesError {
    RulesError::bad_position(key, format!("the position has no `{key}=`"))
}

fn parse_u32(key: &str, v: &str) -> Result<u32, RulesError> {
    v.parse::<u32>().map_err(|_| RulesError::bad_position(key, format!("`{key}={v}`: expected a whole number")))
}

fn unknown_key(k: &str, allowed: &[&str]) -> RulesError {
    let mut msg = format!("unknown key `{k}`");
    if !allowed.is_empty() {
        msg.push_str(&format!("; this game knows {}", allowed.join(", ")));
    }
    RulesError::bad_position(k, msg)
}

/// How many pairs [`Pairs`] holds without allocating (every game has at
/// most a dozen keys).
const INLINE_PAIRS: usize = 16;

/// A position's `key=value` pairs borrowed from its text (or from a
/// [`Record`]): what every game reads a position from
/// ([`crate::game::Game::from_pairs`]). [`Pairs::parse`] splits and checks
/// the text as [`Record::parse`] does, with the same errors, but keeps no
/// `String` a key or value; [`Pairs::take`] and friends consume pairs as a
/// record's do, and [`Pairs::finish`] names the first pair nobody took. So
/// a game reads its text and its record with one reader, and both give the
/// same position, or the same error.
#[derive(Clone, Debug)]
pub struct Pairs<'a> {
    inline: [(&'a str, &'a str); INLINE_PAIRS],
    /// Each inline pair's key in brief ([`key_tag`]): a look-up compares
    /// a key only with the keys of its length and ends.
    tags: [u32; INLINE_PAIRS],
    more: Vec<(&'a str, &'a str)>,
    len: usize,
    /// Bit `i`: pair `i` was taken ([`MAX_KEYS`] = 64 pairs at most).
    taken: u64,
    /// Where the next look-up starts: after the pair taken last. Games
    /// read their keys in the order they write them, so a canonical text's
    /// next key is found at once.
    next: usize,
    /// Bit [`tag_bit`] of every pair's key: a key whose bit is clear is
    /// not there, found so without a look at the pairs (the optional keys
    /// most texts leave out: `resigned`, `max_plies`, ...).
    present: u64,
}

/// A key tag's bit in [`Pairs::present`].
#[inline]
const fn tag_bit(tag: u32) -> u64 {
    1 << (tag.wrapping_mul(0x9E37_79B1) >> 26)
}

impl Default for Pairs<'_> {
    fn default() -> Self {
        Pairs::new()
    }
}

impl<'a> Pairs<'a> {
    /// No pairs: [`Pairs::split`] splits a text into them.
    pub fn new() -> Self {
        Pairs {
            inline: [("", ""); INLINE_PAIRS],
            tags: [0; INLINE_PAIRS],
            more: Vec::new(),
            len: 0,
            taken: 0,
            next: 0,
            present: 0,
        }
    }

    fn at(&self, i: usize) -> (&'a str, &'a str) {
        if i < INLINE_PAIRS {
            self.inline[i]
        } else {
            self.more[i - INLINE_PAIRS]
        }
    }

    #[inline]
    fn push(&mut self, pair: (&'a str, &'a str)) {
        self.push_tagged(pair, key_tag(pair.0));
    }

    /// [`Pairs::push`] of a pair whose key's tag is worked out already.
    #[inline]
    fn push_tagged(&mut self, pair: (&'a str, &'a str), tag: u32) {
        self.present |= tag_bit(tag);
        if self.len < INLINE_PAIRS {
            self.inline[self.len] = pair;
            self.tags[self.len] = tag;
        } else {
            self.more.push(pair);
        }
        self.len += 1;
    }

    /// Splits position text into pairs. Rejects empty keys, a pair without
    /// `=`, a key given twice, more than [`MAX_KEYS`] pairs, and text longer
    /// than [`MAX_POSITION_LEN`].
    pub fn parse(text: &'a str) -> Result<Pairs<'a>, RulesError> {
        let mut pairs = Pairs::new();
        pairs.split(text)?;
        Ok(pairs)
    }

    /// [`Pairs::parse`] into these pairs, which hold none yet (made by
    /// [`Pairs::new`]): where the pairs are read, so they are not copied
    /// out of a result (issue #25).
    pub fn split(&mut self, text: &'a str) -> Result<(), RulesError> {
        debug_assert_eq!(self.len, 0, "split into pairs that hold some");
        if text.len() > MAX_POSITION_LEN {
            return Err(RulesError::bad_position(
                "position",
                format!("the position text is {} bytes long; at most {MAX_POSITION_LEN} are accepted", text.len()),
            ));
        }
        let pairs = self;
        // Split on the bytes `;` and `=` (ASCII, so every piece is whole
        // UTF-8) in one plain scan: a position is a few hundred bytes and a
        // dozen pairs, too short for the searchers' set-up to pay. What
        // `Record::parse` did: split on `;`, trim, skip empty parts, split
        // each at its first `=`, trim both sides.
        let bytes = text.as_bytes();
        let mut start = 0;
        loop {
            // The first `=` or `;` from `start`.
            let at = find_either(bytes, start, b'=', b';');
            if at == bytes.len() || bytes[at] == b';' {
                let part = trim(&text[start..at]);
                if !part.is_empty() {
                    return Err(RulesError::bad_position("position", format!("`{part}` is not a key=value pair")));
                }
                if at == bytes.len() {
                    break;
                }
                start = skip_spaces(bytes, at + 1);
                continue;
            }
            let eq = at;
            let end = find_either(bytes, eq + 1, b';', b';');
            let (k, v) = (trim(&text[start..eq]), trim(&text[eq + 1..end]));
            if k.is_empty() {
                let part = trim(&text[start..end]);
                return Err(RulesError::bad_position("position", format!("`{part}` has no key")));
            }
            if pairs.len >= MAX_KEYS {
                return Err(too_many_keys());
            }
            let tag = key_tag(k);
            // A key whose tag's bit is not yet present is new (most are).
            if pairs.present & tag_bit(tag) != 0
                && (0..pairs.len).any(|i| (i >= INLINE_PAIRS || pairs.tags[i] == tag) && same(pairs.at(i).0, k))
            {
                return Err(given_twice(k));
            }
            pairs.push_tagged((k, v), tag);
            if end == bytes.len() {
                break;
            }
            start = skip_spaces(bytes, end + 1);
        }
        Ok(())
    }

    /// The pairs of a record (its keys are distinct already).
    pub fn of(record: &'a Record) -> Pairs<'a> {
        let mut pairs = Pairs::new();
        for (k, v) in record.entries().iter().take(MAX_KEYS) {
            pairs.push((k, v));
        }
        pairs
    }

    /// The index of the pair `key` nobody has taken yet (keys are
    /// distinct: wherever the look-up starts, it finds the same pair).
    /// In line, as [`Pairs::take`]: every key a reader asks for is a
    /// constant, whose tag is then worked out at compile time.
    #[inline(always)]
    fn find(&self, key: &str) -> Option<usize> {
        let n = self.len;
        let tag = key_tag(key);
        if self.present & tag_bit(tag) == 0 {
            return None;
        }
        let open = |i: usize| self.taken & (1 << i) == 0 && same(self.at(i).0, key);
        // The pair after the one taken last first, then the inline pairs'
        // tags in one plain scan (no wrap-around to keep), then the rest.
        let i = self.next;
        if i < n.min(INLINE_PAIRS) && self.tags[i] == tag && open(i) {
            return Some(i);
        }
        for (i, &t) in self.tags[..n.min(INLINE_PAIRS)].iter().enumerate() {
            if t == tag && open(i) {
                return Some(i);
            }
        }
        (INLINE_PAIRS..n).find(|&i| open(i))
    }

    /// The value of `key`, without consuming it. In line, as
    /// [`Pairs::take`]: a constant key's tag is worked out at compile time.
    #[inline(always)]
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.find(key).map(|i| self.at(i).1)
    }

    /// Consumes `key` and returns its value.
    #[inline(always)]
    pub fn take(&mut self, key: &str) -> Option<&'a str> {
        let i = self.find(key)?;
        self.taken |= 1 << i;
        self.next = i + 1;
        Some(self.at(i).1)
    }

    /// Consumes `key`; an error naming it when it is missing.
    pub fn require(&mut self, key: &str) -> Result<&'a str, RulesError> {
        self.take(key).ok_or_else(|| missing(key))
    }

    /// Consumes `key` and parses it as an unsigned number (`default` when
    /// absent). In line, as [`Pairs::take`], so a constant key's tag is
    /// worked out at compile time (every position reads `ply` and
    /// `max_plies` this way).
    #[inline(always)]
    pub fn take_u32(&mut self, key: &str, default: u32) -> Result<u32, RulesError> {
        match self.take(key) {
            None => Ok(default),
            Some(v) => parse_u32(key, v),
        }
    }

    /// The pairs nobody has taken, in order.
    pub fn left(&self) -> impl Iterator<Item = (&'a str, &'a str)> + '_ {
        (0..self.len).filter(|&i| self.taken & (1 << i) == 0).map(|i| self.at(i))
    }

    /// Errors naming the first key nobody took: an unknown key.
    pub fn finish(&self, allowed: &[&str]) -> Result<(), RulesError> {
        match self.left().next() {
            Some((k, _)) => Err(unknown_key(k, allowed)),
            None => Ok(()),
        }
    }

    fn to_entries(&self) -> Vec<(String, String)> {
        let mut entries = Vec::with_capacity(self.len.max(8));
        entries.extend(self.left().map(|(k, v)| (k.to_string(), v.to_string())));
        entries
    }

    /// The pairs nobody has taken, as a record.
    pub fn to_record(&self) -> Record {
        Record { entries: OnceLock::from(self.to_entries()), text: None }
    }
}

/// The index of the first byte from `i` on that is not a space (what
/// follows a `;` in most texts: trimmed away anyway, but without a call).
#[inline]
fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i] == b' ' {
        i += 1;
    }
    i
}

/// The index of the first byte from `i` on that is `a` or `b`, or the
/// length when none is: eight bytes a step (each word's bytes compared at
/// once: the lowest byte of `w ^ a·0x01..` that is zero is the first `a`),
/// then byte by byte. A position's text is a few hundred bytes, scanned
/// once a call.
#[inline]
fn find_either(bytes: &[u8], mut i: usize, a: u8, b: u8) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let (pa, pb) = (LO * u64::from(a), LO * u64::from(b));
    while let Some(word) = bytes.get(i..i + 8) {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(word).unwrap_or([0; 8]));
        let (x, y) = (w ^ pa, w ^ pb);
        // Exact at the lowest zero byte of each (a borrow can only mark
        // bytes above it), so the lowest mark of either is the first match.
        let hit = (x.wrapping_sub(LO) & !x | y.wrapping_sub(LO) & !y) & HI;
        if hit != 0 {
            return i + (hit.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && bytes[i] != a && bytes[i] != b {
        i += 1;
    }
    i
}

/// Where a game writes a position's pairs: a [`Record`], or position text
/// ([`TextSink`]). A game writes both with one writer, so its text is its
/// record's, byte for byte.
pub trait Sink {
    /// Appends the pair `key`, whose value `value` appends to the string
    /// it is given.
    fn pair(&mut self, key: &str, value: impl FnOnce(&mut String));

    /// Appends the pair `key=value`.
    fn pair_str(&mut self, key: &str, value: &str) {
        self.pair(key, |out| out.push_str(value));
    }
}

impl Sink for Record {
    fn pair(&mut self, key: &str, value: impl FnOnce(&mut String)) {
        let mut v = String::new();
        value(&mut v);
        self.push(key, v);
    }
}

/// Writes pairs as position text (`key=value; key=value`), straight into a
/// `String`: what [`Record::text`] prints of the same pairs.
pub struct TextSink<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> TextSink<'a> {
    /// Writes after what `out` holds, as its first pair.
    pub fn new(out: &'a mut String) -> Self {
        TextSink { out, first: true }
    }

    /// Writes after what `out` holds, which already holds pairs when
    /// `more` (the next pair is preceded by `; `).
    pub fn after(out: &'a mut String, more: bool) -> Self {
        TextSink { out, first: !more }
    }
}

impl Sink for TextSink<'_> {
    fn pair(&mut self, key: &str, value: impl FnOnce(&mut String)) {
        if !self.first {
            self.out.push_str("; ");
        }
        self.first = false;
        self.out.push_str(key);
        self.out.push('=');
        value(self.out);
    }
}

/// `s.trim()`, without decoding a character when both ends are printable
/// ASCII (every name and number of a position): `trim` removes only
/// whitespace, so such a string is its own trim.
#[inline]
pub fn trim(s: &str) -> &str {
    match s.as_bytes() {
        [a, .., b] if a.is_ascii_graphic() && b.is_ascii_graphic() => s,
        [a] if a.is_ascii_graphic() => s,
        _ => trim_spaces(s),
    }
}

/// [`trim`] of a string that has something to trim or is empty: spaces
/// (after `;` and `,` in most texts) are stripped byte by byte first, and
/// what is left trims as it would have.
#[inline(never)]
fn trim_spaces(s: &str) -> &str {
    let b = s.as_bytes();
    let (mut i, mut j) = (0, b.len());
    while i < j && b[i] == b' ' {
        i += 1;
    }
    while j > i && b[j - 1] == b' ' {
        j -= 1;
    }
    // Spaces are ASCII, so both ends are on character boundaries.
    let t = s.get(i..j).unwrap_or(s);
    match t.as_bytes() {
        [] => t,
        [a, .., b] if a.is_ascii_graphic() && b.is_ascii_graphic() => t,
        [a] if a.is_ascii_graphic() => t,
        _ => t.trim(),
    }
}

impl std::fmt::Display for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// Parses `value` (the value of `key`) as one of `names` and returns its
/// index (a player is its index in the game's list of names); anything else
/// is refused naming the key and the names it accepts.
pub fn parse_name(key: &str, value: &str, names: &[&str]) -> Result<usize, RulesError> {
    names.iter().position(|&n| same(n, value)).ok_or_else(|| {
        let expected = match names {
            [.., a, b] => {
                let head = &names[..names.len() - 2];
                let mut list: String = head.iter().map(|n| format!("{n}, ")).collect();
                list.push_str(&format!("{a} or {b}"));
                list
            }
            _ => names.join(", "),
        };
        RulesError::bad_position(key, format!("`{key}={value}`: expected {expected}"))
    })
}

/// `a`, `sep`, `b` as one string, without the formatting machinery (move
/// lists name two cells per move, hundreds of moves a call).
pub fn joined(a: &str, sep: &str, b: &str) -> String {
    let mut out = String::with_capacity(a.len() + sep.len() + b.len());
    out.push_str(a);
    out.push_str(sep);
    out.push_str(b);
    out
}

/// Splits a comma-separated list; an empty value is the empty list. The
/// items of `value.split(',')`, trimmed, the empty ones left out, found by
/// a plain byte scan (every position lists its cells: a few dozen names a
/// call, too short for `str::split`'s searcher to pay).
pub fn split_list(value: &str) -> impl Iterator<Item = &str> {
    List { rest: Some(value) }
}

struct List<'a> {
    /// What is left to split; `None` once the last item was given.
    rest: Option<&'a str>,
}

impl<'a> Iterator for List<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        loop {
            let rest = self.rest?;
            let item = match rest.bytes().position(|b| b == b',') {
                Some(i) => {
                    self.rest = Some(&rest[i + 1..]);
                    &rest[..i]
                }
                None => {
                    self.rest = None;
                    rest
                }
            };
            let item = trim(item);
            if !item.is_empty() {
                return Some(item);
            }
        }
    }
}

/// A set of cells as bits ([`quick_list`]'s): `u64` or `u128`.
pub trait CellSet:
    Copy + PartialEq + std::ops::BitOr<Output = Self> + std::ops::BitAnd<Output = Self> + std::ops::BitOrAssign
{
    const EMPTY: Self;
    /// The set of cell `c` alone.
    fn bit(c: u8) -> Self;
}

impl CellSet for u64 {
    const EMPTY: u64 = 0;
    #[inline(always)]
    fn bit(c: u8) -> u64 {
        1 << c
    }
}

impl CellSet for u128 {
    const EMPTY: u128 = 0;
    #[inline(always)]
    fn bit(c: u8) -> u128 {
        1 << c
    }
}

/// The quick reading of a list of cells written as a position's text
/// writes it (issue #25: a position names every piece): names read by
/// `name` (from the bytes at the index it is given, which it moves past
/// the name; `None` for anything but a name of its board), one comma
/// between, nothing else, none of them doubled or in `taken`. `None` for
/// anything else (spaces, empty items, unknown or doubled names), which
/// [`parse_cells`] then reads, with its errors; for what this accepts it
/// gives the same cells. The boards' `quick_cells` (Shoulder to
/// Shoulder's, the Squeeze family's) are this with their name tables, in
/// their own width of set (`u64` for a board of up to 64 cells).
#[inline(always)]
pub fn quick_list<S: CellSet>(value: &str, taken: S, name: impl Fn(&[u8], &mut usize) -> Option<u8>) -> Option<S> {
    let b = value.as_bytes();
    let mut set = S::EMPTY;
    let mut i = 0;
    loop {
        let m = S::bit(name(b, &mut i)?);
        if (set | taken) & m != S::EMPTY {
            return None;
        }
        set |= m;
        match b.get(i) {
            None => return Some(set),
            Some(b',') => i += 1,
            Some(_) => return None,
        }
    }
}

/// Parses a list of cell names into a bitboard, rejecting unknown cells and
/// cells already in `occupied` (two pieces on one cell). `key` names the
/// list in errors; `cell_index` maps a name to its index.
#[inline]
pub fn parse_cells(
    key: &str,
    value: &str,
    occupied: &mut u128,
    cell_index: impl Fn(&str) -> Option<u8>,
) -> Result<u128, RulesError> {
    // [`split_list`]'s items (split on `,`, trimmed, empties skipped) in
    // one plain scan with the look-up in line: a position names every
    // piece, and an iterator's state and a call a name cost more than the
    // look-up itself (issue #25).
    let bytes = value.as_bytes();
    let mut set = 0u128;
    let mut start = 0;
    loop {
        let mut end = start;
        while end < bytes.len() && bytes[end] != b',' {
            end += 1;
        }
        // `,` is ASCII, so both ends are on character boundaries.
        let name = trim(value.get(start..end).unwrap_or_default());
        if !name.is_empty() {
            let Some(c) = cell_index(name) else {
                return Err(RulesError::bad_position(key, format!("`{name}` in `{key}` is not a cell of this board"))
                    .with_cell(name));
            };
            let b = 1u128 << c;
            if *occupied & b != 0 {
                return Err(RulesError::bad_position(key, format!("two pieces on {name}")).with_cell(name));
            }
            *occupied |= b;
            set |= b;
        }
        if end >= bytes.len() {
            return Ok(set);
        }
        start = end + 1;
    }
}

/// [`push_cells`] for names borrowed from a table (a board's): the list
/// is gathered in a buffer on the stack, each name of up to eight bytes
/// placed by fixed-size copies, and appended at once, where `push_str` a
/// name checks the capacity and calls `memcpy` (a position's text names
/// every piece; issue #25). The same text.
#[inline]
pub fn push_names<'n>(out: &mut String, set: u128, name: impl Fn(u8) -> &'n str) {
    let mut buf = [0u8; 264];
    let mut n = 0;
    for (i, c) in crate::bits::Bits(set).enumerate() {
        let s = name(c).as_bytes();
        if s.len() > 8 || n + 9 > buf.len() {
            flush(out, &buf[..n]);
            n = 0;
            if s.len() > 8 {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(name(c));
                continue;
            }
        }
        if i > 0 {
            buf[n] = b',';
            n += 1;
        }
        let d = &mut buf[n..n + 8];
        match s.len() {
            0 => {}
            // Bytes 0, len/2 and len-1 cover a name of one to three.
            1..=3 => {
                d[0] = s[0];
                d[s.len() / 2] = s[s.len() / 2];
                d[s.len() - 1] = s[s.len() - 1];
            }
            // Two overlapping four-byte copies.
            k => {
                d[..4].copy_from_slice(&s[..4]);
                d[k - 4..k].copy_from_slice(&s[k - 4..k]);
            }
        }
        n += s.len();
    }
    flush(out, &buf[..n]);
}

/// A board's cell names made ready for [`push_packed`]: per cell, the
/// name and a comma in the first bytes of eight, and in the last byte the
/// length with the comma. Worked out at compile time from a board's names
/// (`PackedNames::new`), for names of one to six bytes; a board with a
/// longer or empty name gets `None` and keeps [`push_names`].
#[derive(Debug)]
pub struct PackedNames {
    words: [[u8; 8]; 128],
}

impl PackedNames {
    /// The names as eight-byte words: each name, a comma, and in the last
    /// byte the two's length (for a writer that copies a word a name).
    pub fn words(&self) -> &[[u8; 8]; 128] {
        &self.words
    }

    /// The packed names of a board of up to 128 cells, `None` when a name
    /// is empty or longer than six bytes, or there are too many cells.
    pub const fn new(names: &[&str]) -> Option<PackedNames> {
        if names.len() > 128 {
            return None;
        }
        let mut words = [[0u8; 8]; 128];
        let mut c = 0;
        while c < names.len() {
            let s = names[c].as_bytes();
            if s.is_empty() || s.len() > 6 {
                return None;
            }
            let mut i = 0;
            while i < s.len() {
                words[c][i] = s[i];
                i += 1;
            }
            words[c][s.len()] = b',';
            words[c][7] = s.len() as u8 + 1;
            c += 1;
        }
        Some(PackedNames { words })
    }
}

/// [`push_packed`]'s buffer, aligned so that `str::from_utf8` checks it a
/// word at a time (unaligned, it cost three times as much).
#[repr(align(16))]
struct Aligned([u8; 136]);

/// Appends the names of the cells of `set`, comma-separated, as
/// [`push_names`] of `name` does: from `packed` where the board's names
/// could be packed ([`push_packed`]), else name by name. Every game's
/// position text writes its lists through this.
#[inline]
pub fn push_list<'n>(out: &mut String, set: u128, packed: Option<&PackedNames>, name: impl Fn(u8) -> &'n str) {
    match packed {
        Some(p) => push_packed(out, set, p),
        None => push_names(out, set, name),
    }
}

/// [`push_names`] from a [`PackedNames`] table: each name one copy of
/// eight bytes (its comma after it, its length in the table), the cells
/// taken from the two halves of `set` as `u64`s. The same text (issue
/// #25: a position's text names every piece, and `push_names` spent about
/// 50 instructions a name).
#[inline]
pub fn push_packed(out: &mut String, set: u128, names: &PackedNames) {
    // Room for 16 names and the eight bytes the last copy writes.
    let mut buf = Aligned([0u8; 136]);
    let buf = &mut buf.0;
    let mut n = 0;
    for (mut half, base) in [(set as u64, 0u8), ((set >> 64) as u64, 64)] {
        while half != 0 {
            let c = base + half.trailing_zeros() as u8;
            half &= half - 1;
            if n + 8 > buf.len() {
                // More names follow: the comma stays.
                flush(out, &buf[..n]);
                n = 0;
            }
            let w = names.words[c as usize & 127];
            buf[n..n + 8].copy_from_slice(&w);
            n += w[7] as usize;
        }
    }
    // The last name's comma left out.
    if n > 1 {
        flush(out, &buf[..n - 1]);
    }
}

/// Appends `bytes`, whole names and commas (so UTF-8), to `out`.
#[inline]
fn flush(out: &mut String, bytes: &[u8]) {
    if let Ok(s) = std::str::from_utf8(bytes) {
        out.push_str(s);
    }
}

/// Appends `n` in decimal, without the formatting machinery.
pub fn push_number(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(d as char);
    }
}

/// Prints a bitboard as a comma-separated list of cell names in board order.
pub fn format_cells<S: AsRef<str>>(set: u128, name: impl Fn(u8) -> S) -> String {
    write_cells(set, |out, c| out.push_str(name(c).as_ref()))
}

/// [`format_cells`] with each name appended by `push`: one `String` for the
/// whole list, none a cell (a reply prints every position it shows).
pub fn write_cells(set: u128, push: impl Fn(&mut String, u8)) -> String {
    let mut out = String::with_capacity(4 * set.count_ones() as usize);
    push_cells(&mut out, set, push);
    out
}

/// Appends the comma-separated list of the cells of `set`, each name
/// appended by `push`, to `out` ([`write_cells`] into a string that holds
/// more: a position's text).
#[inline]
pub fn push_cells(out: &mut String, set: u128, push: impl Fn(&mut String, u8)) {
    for (i, c) in crate::bits::Bits(set).enumerate() {
        if i > 0 {
            out.push(',');
        }
        push(out, c);
    }
}

/// Every string of at most `max_len` pieces of `alphabet`, the empty one
/// first: the inputs on which the name readers' tests compare a new reader
/// with the old one (issue #25).
#[cfg(test)]
pub(crate) fn every_string(alphabet: &[&str], max_len: usize) -> Vec<String> {
    let mut names = vec![String::new()];
    let mut layer = 0..1;
    for _ in 0..max_len {
        let start = names.len();
        for n in layer.clone() {
            for a in alphabet {
                let longer = format!("{}{a}", names[n]);
                names.push(longer);
            }
        }
        layer = start..names.len();
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_is_the_three_parts() {
        assert_eq!(joined("a1", "-", "h8"), "a1-h8");
        assert_eq!(joined("white", "@", "d8"), "white@d8");
        assert_eq!(joined("", "", ""), "");
    }

    #[test]
    fn names_parse_to_their_index_and_others_are_refused_with_the_choices() {
        assert_eq!(parse_name("to_move", "red", &["white", "red"]).unwrap(), 1);
        let e = parse_name("to_move", "pink", &["white", "red"]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("to_move"));
        assert!(e.message.contains("`to_move=pink`: expected white or red"), "{}", e.message);
        let e = parse_name("setter", "x", &["red", "green", "blue"]).unwrap_err();
        assert!(e.message.ends_with("expected red, green or blue"), "{}", e.message);
        assert!(parse_name("k", "", &["only"]).unwrap_err().message.ends_with("expected only"));
    }

    #[test]
    fn parses_and_prints_pairs() {
        let r = Record::parse(" to_move=red ;white=30a, 29b; red=1a ;").unwrap();
        assert_eq!(r.get("to_move"), Some("red"));
        assert_eq!(r.get("white"), Some("30a, 29b"));
        assert_eq!(r.to_string(), "to_move=red; white=30a, 29b; red=1a");
    }

    #[test]
    fn split_list_is_split_trimmed_without_empties() {
        for v in ["", ",", "a", "a,b", " a , b ,", ",,a,,", "1a, 2b,\u{a0}3c\u{a0},é", " ", "a,,", "x ,y"] {
            let want: Vec<&str> = v.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
            assert_eq!(split_list(v).collect::<Vec<_>>(), want, "{v:?}");
        }
    }

    #[test]
    fn push_number_is_to_string() {
        for n in [0, 1, 9, 10, 99, 100, 12345, u32::MAX] {
            let mut out = String::from("x");
            push_number(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn trim_is_str_trim() {
        for s in [
            "",
            " ",
            "a",
            " a",
            "a ",
            " a b ",
            "1a",
            "\u{a0}x",
            "x\u{a0}",
            "\u{3000}",
            "é",
            "a\tb",
            "\n1a,",
            "   ",
            "  a  ",
            " \u{a0}x ",
            " \ty\n ",
            " é ",
            "  \u{3000} ",
            " a\u{a0}",
        ] {
            assert_eq!(trim(s), s.trim(), "{s:?}");
        }
    }

    #[test]
    fn text_is_to_string() {
        for t in ["to_move=red; white=30a, 29b; red=1a", "", "a=", "k=v"] {
            let r = Record::parse(t).unwrap();
            assert_eq!(r.text(), r.to_string());
        }
    }

    #[test]
    fn parses_as_splitting_does() {
        let r = Record::parse("a=1;;b = x=y ; é=ü;c=").unwrap();
        let pairs: Vec<(&str, &str)> = r.entries().iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(pairs, [("a", "1"), ("b", "x=y"), ("é", "ü"), ("c", "")]);
        assert!(Record::parse(";").unwrap().is_empty());
        assert!(Record::parse("a=1; b").is_err());
    }

    #[test]
    fn rejects_duplicates_and_garbage() {
        let e = Record::parse("a=1; a=2").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("a"));
        assert!(Record::parse("justtext").is_err());
        assert!(Record::parse("=3").is_err());
        assert!(Record::parse(&"x".repeat(MAX_POSITION_LEN + 1)).is_err());
        let many: String = (0..=MAX_KEYS).map(|i| format!("k{i}=1;")).collect();
        assert!(Record::parse(&many).unwrap_err().message.contains("more than 64 keys"));
    }

    #[test]
    fn pairs_read_as_a_record_does() {
        let text = " to_move=red ;white=30a, 29b; red=1a ; x= ;";
        let mut p = Pairs::parse(text).unwrap();
        let mut r = Record::parse(text).unwrap();
        assert_eq!(p.to_record(), r);
        assert_eq!(p.get("white"), r.get("white"));
        assert_eq!(p.take("white"), r.take("white").as_deref());
        assert_eq!(p.get("white"), None);
        assert_eq!(p.take("white"), None);
        assert_eq!(p.require("nope").unwrap_err(), r.require("nope").unwrap_err());
        assert_eq!(p.take_u32("to_move", 0).unwrap_err(), r.take_u32("to_move", 0).unwrap_err());
        assert_eq!(p.take_u32("absent", 7).unwrap(), 7);
        assert_eq!(p.to_record(), r);
        assert_eq!(p.clone().finish(&["a"]).unwrap_err(), r.clone().finish(&["a"]).unwrap_err());
        assert_eq!(p.take("red"), Some("1a"));
        assert_eq!(p.take("x"), Some(""));
        assert!(p.finish(&[]).is_ok());
        // The record's pairs, borrowed.
        let r = Record::parse("a=1; b=2").unwrap();
        let mut q = Pairs::of(&r);
        assert_eq!(q.take("b"), Some("2"));
        assert_eq!(q.left().collect::<Vec<_>>(), [("a", "1")]);
    }

    /// `Record::parse` as it was before the one-pass scan: split on `;`,
    /// trim, split at the first `=`.
    fn parse_by_splitting(text: &str) -> Result<Vec<(String, String)>, RulesError> {
        let mut out: Vec<(String, String)> = Vec::new();
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((k, v)) = part.split_once('=') else {
                return Err(RulesError::bad_position("position", format!("`{part}` is not a key=value pair")));
            };
            let (k, v) = (k.trim(), v.trim());
            if k.is_empty() {
                return Err(RulesError::bad_position("position", format!("`{part}` has no key")));
            }
            if out.len() >= MAX_KEYS {
                return Err(too_many_keys());
            }
            if out.iter().any(|(o, _)| o == k) {
                return Err(given_twice(k));
            }
            out.push((k.to_string(), v.to_string()));
        }
        Ok(out)
    }

    #[test]
    fn the_one_pass_scan_splits_as_splitting_did() {
        let alphabet = ["a", "b", "=", ";", " ", "\u{a0}", "é", "1", ",", "\t", "==", ";;", "; ", "key", "=v;"];
        let mut seed = 7u64;
        for _ in 0..20_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            // Up to 31 pieces, or up to 127 (several words a text).
            let len = if seed & 1 == 0 { (seed >> 59) as usize } else { (seed >> 57) as usize };
            let mut text = String::new();
            let mut r = seed;
            for _ in 0..len {
                r = r.wrapping_mul(6364136223846793005).wrapping_add(1);
                text.push_str(alphabet[(r >> 33) as usize % alphabet.len()]);
            }
            let want = parse_by_splitting(&text);
            let got = Pairs::parse(&text).map(|p| p.to_entries());
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn pairs_beyond_the_inline_room_are_kept_too() {
        let text: String = (0..MAX_KEYS).map(|i| format!("k{i}={i};")).collect();
        let mut p = Pairs::parse(&text).unwrap();
        assert_eq!(p.to_record(), Record::parse(&text).unwrap());
        assert_eq!(p.take("k40"), Some("40"));
        assert_eq!(p.get("k63"), Some("63"));
        let e = p.finish(&[]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("k0"));
        let dup = format!("{text}k20=x");
        assert!(Pairs::parse(&dup).unwrap_err().message.contains("more than 64 keys"));
        let dup: String = (0..20).map(|i| format!("k{i}=1;")).chain(["k17=2".to_string()]).collect();
        assert_eq!(Pairs::parse(&dup).unwrap_err().field.as_deref(), Some("k17"));
    }

    #[test]
    fn a_record_of_text_reads_and_changes_as_the_parsed_record() {
        let text = "to_move=red; white=30a,29b; red=1a";
        let lazy = Record::of_text(text.to_string());
        let parsed = Record::parse(text).unwrap();
        assert_eq!(lazy.text(), text);
        assert_eq!(lazy, parsed);
        assert_eq!(lazy.get("red"), Some("1a"));
        assert_eq!(lazy.entries(), parsed.entries());
        let mut changed = Record::of_text(text.to_string());
        changed.push("ply", "3");
        assert_eq!(changed.text(), "to_move=red; white=30a,29b; red=1a; ply=3");
        let mut taken = Record::of_text(text.to_string());
        assert_eq!(taken.take("white").as_deref(), Some("30a,29b"));
        assert_eq!(taken.text(), "to_move=red; red=1a");
        assert_eq!(taken.to_string(), taken.text());
        assert_eq!(Record::of_text(String::new()), Record::new());
        assert!(Record::of_text("x".into()).is_empty(), "text no game wrote reads as no pairs");
    }

    #[test]
    fn the_text_sink_writes_what_text_prints() {
        let mut r = Record::new();
        let mut out = String::from("k=v");
        {
            let mut sink = TextSink::after(&mut out, true);
            sink.pair_str("a", "1");
            sink.pair("b", |o| push_number(o, 42));
        }
        r.pair_str("a", "1");
        r.pair("b", |o| push_number(o, 42));
        assert_eq!(out, format!("k=v; {}", r.text()));
        let mut fresh = String::new();
        TextSink::new(&mut fresh).pair_str("a", "1");
        assert_eq!(fresh, "a=1");
    }

    #[test]
    fn finish_names_unknown_key() {
        let mut r = Record::parse("to_move=white; colour=blue").unwrap();
        r.take("to_move");
        let e = r.finish(&["to_move"]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("colour"));
        assert!(e.message.contains("unknown key `colour`"));
    }

    /// `parse_cells` as it was before the one-pass scan (issue #25).
    fn parse_cells_by_list(
        key: &str,
        value: &str,
        occupied: &mut u128,
        cell_index: impl Fn(&str) -> Option<u8>,
    ) -> Result<u128, RulesError> {
        let mut set = 0u128;
        for name in split_list(value) {
            let Some(c) = cell_index(name) else {
                return Err(RulesError::bad_position(key, format!("`{name}` in `{key}` is not a cell of this board"))
                    .with_cell(name));
            };
            let b = 1u128 << c;
            if *occupied & b != 0 {
                return Err(RulesError::bad_position(key, format!("two pieces on {name}")).with_cell(name));
            }
            *occupied |= b;
            set |= b;
        }
        Ok(set)
    }

    #[test]
    fn parse_cells_in_one_pass_is_the_list_split() {
        // Names of one or two characters (digits 0-9 are cells, others
        // not), commas, spaces and a non-ASCII space, at random.
        let pieces = ["1", "2", "7", "12", "x", ",", ",", " ", "\u{a0}", "é", ", ", " ,"];
        let idx = |s: &str| s.parse::<u8>().ok().filter(|&n| n < 10);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            let mut v = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for k in 0..(seed % 9) {
                v.push_str(pieces[((seed >> (8 + 4 * k)) % pieces.len() as u64) as usize]);
            }
            let occupied = (seed >> 40) as u128 & 0b1000_0001;
            let (mut a, mut b) = (occupied, occupied);
            let (x, y) = (parse_cells("red", &v, &mut a, idx), parse_cells_by_list("red", &v, &mut b, idx));
            match (x, y) {
                (Ok(x), Ok(y)) => assert_eq!((x, a), (y, b), "{v:?}"),
                (Err(x), Err(y)) => assert_eq!((x.message, x.cell, x.field), (y.message, y.cell, y.field), "{v:?}"),
                (x, y) => panic!("{v:?}: {x:?} against {y:?}"),
            }
        }
    }

    #[test]
    fn same_is_str_eq() {
        let words =
            ["", "a", "ab", "abc", "abcd", "abcde", "abcdefg", "abcdefgh", "abcdefghi", "white_seat", "bidder_moves"];
        let mut all: Vec<String> = Vec::new();
        for w in words.iter().chain(&["x", "max_plies", "0123456789abcdef", "0123456789abcdefg", "ünï", "é"]) {
            all.push(w.to_string());
            // The same length, one byte changed at each place in turn.
            for i in 0..w.len() {
                let mut b = w.as_bytes().to_vec();
                b[i] = if b[i] == b'z' { b'y' } else { b'z' };
                if let Ok(t) = String::from_utf8(b) {
                    all.push(t);
                }
            }
        }
        for a in &all {
            for b in &all {
                assert_eq!(same(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn find_either_is_a_byte_scan() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 40) as usize;
            // Bytes around the searched ones and high bytes (borrows).
            let bytes: Vec<u8> = (0..len)
                .map(|k| {
                    [b'=', b';', b'<', b':', 0x00, 0x80, 0xff, b'a', 0x3c, 0xbd][((seed >> (k % 50)) % 10) as usize]
                })
                .collect();
            for from in 0..=len {
                for (a, b) in [(b'=', b';'), (b';', b';'), (0x00, 0xff)] {
                    let want = (from..len).find(|&i| bytes[i] == a || bytes[i] == b).unwrap_or(len);
                    assert_eq!(find_either(&bytes, from, a, b), want, "{bytes:?} from {from}");
                }
            }
        }
    }

    #[test]
    fn push_names_is_push_cells() {
        let names = ["a", "b2", "c33", "d444", "e5555", "f66666", "g777777", "h8888888", "i99999999", "", "ünï", "x"];
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..5_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Sets of up to 128 cells, some the full board (long lists).
            let set =
                if seed.is_multiple_of(7) { u128::MAX >> (seed % 5) } else { u128::from(seed) * u128::from(seed >> 3) };
            let name = |c: u8| names[(c as usize * 7 + (seed % 13) as usize) % names.len()];
            let (mut a, mut b) = (String::from("k="), String::from("k="));
            push_names(&mut a, set, name);
            push_cells(&mut b, set, |o, c| o.push_str(name(c)));
            assert_eq!(a, b);
        }
    }

    #[test]
    fn push_packed_is_push_names() {
        let names: Vec<String> =
            (0..128).map(|c| format!("{}{}", (b'a' + (c % 26) as u8) as char, c * 37 % 1000)).collect();
        let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
        let table = PackedNames::new(&names).expect("short names");
        assert!(PackedNames::new(&["abcdefg"]).is_none());
        assert!(PackedNames::new(&[""]).is_none());
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for i in 0..5_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let set = match i % 5 {
                0 => u128::MAX >> (seed % 128),
                1 => 0,
                _ => (u128::from(seed) * u128::from(seed >> 3)) ^ (u128::from(seed) << 64),
            };
            let (mut a, mut b) = (String::from("k="), String::from("k="));
            push_packed(&mut a, set, &table);
            push_names(&mut b, set, |c| names[c as usize]);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn parse_cells_names_bad_and_doubled_cells() {
        let idx = |s: &str| s.parse::<u8>().ok().filter(|&n| n < 10);
        let mut occ = 0;
        assert_eq!(parse_cells("white", "1,2", &mut occ, idx).unwrap(), 0b110);
        let e = parse_cells("red", "3,2", &mut occ, idx).unwrap_err();
        assert_eq!(e.cell.as_deref(), Some("2"));
        let e = parse_cells("red", "11", &mut occ, idx).unwrap_err();
        assert_eq!(e.cell.as_deref(), Some("11"));
    }
}
