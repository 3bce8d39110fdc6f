//! A tiny JSON reader, just enough for the board file (objects, arrays,
//! strings, numbers, booleans, null). Errors name the byte offset.

use std::collections::BTreeMap;

/// A parsed JSON value. Numbers are kept as `f64`.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

impl Json {
    /// Parses a whole document; trailing non-space text is an error.
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser { s: text.as_bytes(), i: 0 };
        let v = p.value(0)?;
        p.space();
        if p.i != p.s.len() {
            return Err(format!("unexpected text at byte {}", p.i));
        }
        Ok(v)
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(m) => m.get(key),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// A whole number that fits an `i32`.
    pub fn as_i32(&self) -> Option<i32> {
        match *self {
            Json::Number(n) if n.fract() == 0.0 && n.abs() <= i32::MAX as f64 => Some(n as i32),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Json::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(v) => Some(v),
            _ => None,
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

/// Nesting deeper than this is refused (the board file nests 3 deep).
const MAX_DEPTH: usize = 64;

impl Parser<'_> {
    fn space(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.i))
    }

    fn eat(&mut self, b: u8) -> bool {
        self.space();
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return self.err("nesting too deep");
        }
        self.space();
        match self.s.get(self.i) {
            None => self.err("unexpected end"),
            Some(b'{') => {
                self.i += 1;
                let mut m = BTreeMap::new();
                if self.eat(b'}') {
                    return Ok(Json::Object(m));
                }
                loop {
                    self.space();
                    let k = self.string()?;
                    if !self.eat(b':') {
                        return self.err("expected `:`");
                    }
                    let v = self.value(depth + 1)?;
                    if m.insert(k.clone(), v).is_some() {
                        return self.err(&format!("key `{k}` given twice"));
                    }
                    if self.eat(b'}') {
                        return Ok(Json::Object(m));
                    }
                    if !self.eat(b',') {
                        return self.err("expected `,` or `}`");
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut v = Vec::new();
                if self.eat(b']') {
                    return Ok(Json::Array(v));
                }
                loop {
                    v.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Ok(Json::Array(v));
                    }
                    if !self.eat(b',') {
                        return self.err("expected `,` or `]`");
                    }
                }
            }
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(_) => self.number(),
        }
    }

    fn word(&mut self, w: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            self.err("unexpected word")
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        match text.parse::<f64>() {
            Ok(n) if !text.is_empty() => Ok(Json::Number(n)),
            _ => {
                self.i = start;
                self.err("expected a value")
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.s.get(self.i) != Some(&b'"') {
            return self.err("expected a string");
        }
        self.i += 1;
        let mut out = Vec::new();
        loop {
            match self.s.get(self.i) {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return String::from_utf8(out).map_err(|_| "invalid UTF-8".to_string());
                }
                Some(b'\\') => {
                    let c = match self.s.get(self.i + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'n') => '\n',
                        Some(b't') => '\t',
                        Some(b'r') => '\r',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'u') => {
                            let hex = self.s.get(self.i + 2..self.i + 6).and_then(|h| std::str::from_utf8(h).ok());
                            let c = hex.and_then(|h| u32::from_str_radix(h, 16).ok()).and_then(char::from_u32);
                            let Some(c) = c else { return self.err("bad \\u escape") };
                            self.i += 4;
                            c
                        }
                        _ => return self.err("bad escape"),
                    };
                    self.i += 2;
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(&b) => {
                    out.push(b);
                    self.i += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_shapes_the_board_uses() {
        let j = Json::parse(r#" {"a": [1, -2, 3.5e0], "b": {"c": true, "d": null}, "e": "x\"y\u0041"} "#).unwrap();
        let a = j.get("a").and_then(Json::as_array).unwrap();
        assert_eq!(a.iter().map(|v| v.as_i32()).collect::<Vec<_>>(), vec![Some(1), Some(-2), None]);
        assert_eq!(j.get("b").and_then(|b| b.get("c")).and_then(Json::as_bool), Some(true));
        assert_eq!(j.get("e").and_then(Json::as_str), Some("x\"yA"));
        assert_eq!(Json::parse("[]").unwrap(), Json::Array(vec![]));
    }

    #[test]
    fn rejects_malformed_text() {
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,\"a\":2}", "\"open", "tru", "1 2", "-", "{1:2}"] {
            assert!(Json::parse(bad).is_err(), "{bad}");
        }
        assert!(Json::parse(&"[".repeat(100)).is_err());
    }
}
