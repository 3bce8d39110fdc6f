//! The position text shared by every game: `key=value` pairs separated by
//! `;`, spaces around them ignored, lists comma-separated.
//!
//! A [`Record`] is the parsed form: an ordered list of pairs. Games read a
//! record with [`Record::take`] and friends and reject what is left with
//! [`Record::finish`], so an unknown key is always named in the error.

use crate::error::RulesError;

/// An ordered list of `key=value` pairs: a position in its text form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    entries: Vec<(String, String)>,
}

/// The longest position text accepted, in bytes. No game needs more than a
/// few hundred; this bounds the work a hostile request can cause.
pub const MAX_POSITION_LEN: usize = 16 * 1024;

/// The most `key=value` pairs a position may have. No game has more than a
/// dozen keys; this keeps every look-up cheap whatever a client sends.
pub const MAX_KEYS: usize = 64;

impl Record {
    pub fn new() -> Self {
        // Room for every game's keys (at most eight): a record is built for
        // every position a call reads or prints, and growing the list one
        // pair at a time costs a reallocation or two each.
        Record { entries: Vec::with_capacity(8) }
    }

    /// Parses position text. Rejects empty keys, a pair without `=`, a key
    /// given twice, and text longer than [`MAX_POSITION_LEN`].
    pub fn parse(text: &str) -> Result<Record, RulesError> {
        if text.len() > MAX_POSITION_LEN {
            return Err(RulesError::bad_position(
                "position",
                format!("the position text is {} bytes long; at most {MAX_POSITION_LEN} are accepted", text.len()),
            ));
        }
        let mut rec = Record::new();
        // Split on the bytes `;` and `=` (ASCII, so every piece is whole
        // UTF-8) with a plain scan: a position is a few hundred bytes and a
        // dozen pairs, too short for the searchers' set-up to pay.
        let bytes = text.as_bytes();
        let mut start = 0;
        for end in 0..=bytes.len() {
            if end < bytes.len() && bytes[end] != b';' {
                continue;
            }
            let part = trim(&text[start..end]);
            start = end + 1;
            if part.is_empty() {
                continue;
            }
            let Some(eq) = part.bytes().position(|b| b == b'=') else {
                return Err(RulesError::bad_position("position", format!("`{part}` is not a key=value pair")));
            };
            let (k, v) = (trim(&part[..eq]), trim(&part[eq + 1..]));
            if k.is_empty() {
                return Err(RulesError::bad_position("position", format!("`{part}` has no key")));
            }
            rec.insert(k, v)?;
        }
        Ok(rec)
    }

    /// Adds a pair; a key given twice is an error naming it.
    pub fn insert(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        if self.entries.len() >= MAX_KEYS {
            return Err(RulesError::bad_position(
                "position",
                format!("the position has more than {MAX_KEYS} keys; no game has nearly that many"),
            ));
        }
        if self.entries.iter().any(|(k, _)| k == key) {
            return Err(RulesError::bad_position(key, format!("key `{key}` is given twice")));
        }
        self.entries.push((key.to_string(), value.to_string()));
        Ok(())
    }

    /// Appends a pair when printing (no duplicate check: printers are ours).
    pub fn push(&mut self, key: &str, value: impl Into<String>) {
        self.entries.push((key.to_string(), value.into()));
    }

    /// The value of `key`, without consuming it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Removes `key` and returns its value.
    pub fn take(&mut self, key: &str) -> Option<String> {
        let i = self.entries.iter().position(|(k, _)| k == key)?;
        Some(self.entries.remove(i).1)
    }

    /// Removes `key`; an error naming it when it is missing.
    pub fn require(&mut self, key: &str) -> Result<String, RulesError> {
        self.take(key).ok_or_else(|| RulesError::bad_position(key, format!("the position has no `{key}=`")))
    }

    /// Removes `key` and parses it as an unsigned number (`default` when absent).
    pub fn take_u32(&mut self, key: &str, default: u32) -> Result<u32, RulesError> {
        match self.take(key) {
            None => Ok(default),
            Some(v) => v
                .parse::<u32>()
                .map_err(|_| RulesError::bad_position(key, format!("`{key}={v}`: expected a whole number"))),
        }
    }

    /// Errors naming the first key nobody took: an unknown key.
    pub fn finish(self, allowed: &[&str]) -> Result<(), RulesError> {
        if let Some((k, _)) = self.entries.first() {
            let mut msg = format!("unknown key `{k}`");
            if !allowed.is_empty() {
                msg.push_str(&format!("; this game knows {}", allowed.join(", ")));
            }
            return Err(RulesError::bad_position(k.clone(), msg));
        }
        Ok(())
    }

    pub fn entries(&self) -> &[(String, String)] {
        &self.entries
    }

    pub fn into_entries(self) -> Vec<(String, String)> {
        self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The record as position text (what `to_string` prints), written into
    /// one `String` of the exact length: every reply prints a position, and
    /// the formatting machinery grows its buffer several times on the way.
    pub fn text(&self) -> String {
        let len: usize = self.entries.iter().map(|(k, v)| k.len() + v.len() + 3).sum();
        let mut out = String::with_capacity(len);
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push_str("; ");
            }
            out.push_str(k);
            out.push('=');
            out.push_str(v);
        }
        out
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
        _ => s.trim(),
    }
}

impl std::fmt::Display for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            f.write_str(k)?;
            f.write_str("=")?;
            f.write_str(v)?;
        }
        Ok(())
    }
}

/// Parses `value` (the value of `key`) as one of `names` and returns its
/// index (a player is its index in the game's list of names); anything else
/// is refused naming the key and the names it accepts.
pub fn parse_name(key: &str, value: &str, names: &[&str]) -> Result<usize, RulesError> {
    names.iter().position(|&n| n == value).ok_or_else(|| {
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

/// Splits a comma-separated list; an empty value is the empty list.
pub fn split_list(value: &str) -> impl Iterator<Item = &str> {
    value.split(',').map(trim).filter(|s| !s.is_empty())
}

/// Parses a list of cell names into a bitboard, rejecting unknown cells and
/// cells already in `occupied` (two pieces on one cell). `key` names the
/// list in errors; `cell_index` maps a name to its index.
pub fn parse_cells(
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
    for (i, c) in crate::bits::Bits(set).enumerate() {
        if i > 0 {
            out.push(',');
        }
        push(&mut out, c);
    }
    out
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
    fn push_number_is_to_string() {
        for n in [0, 1, 9, 10, 99, 100, 12345, u32::MAX] {
            let mut out = String::from("x");
            push_number(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn trim_is_str_trim() {
        for s in ["", " ", "a", " a", "a ", " a b ", "1a", "\u{a0}x", "x\u{a0}", "\u{3000}", "é", "a\tb", "\n1a,"] {
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
    fn finish_names_unknown_key() {
        let mut r = Record::parse("to_move=white; colour=blue").unwrap();
        r.take("to_move");
        let e = r.finish(&["to_move"]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("colour"));
        assert!(e.message.contains("unknown key `colour`"));
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
