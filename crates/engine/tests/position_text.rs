//! Position text read straight into a position (issue #25): over every
//! game and variant, seeded walks and a fixed set of damaged texts, the
//! answer to each text — its canonical text, or its error's kind, field,
//! cell and message — must be what the engine answered before the direct
//! reader, when every position went text → `Record` → position.
//! `tests/data/position_text.tsv` holds those answers, written by this
//! test (without its `load_given` lines) at b1b4e1c, the commit before the
//! direct reader, with `PARLOUR_WRITE_POSITION_TEXT=1`; both ways in (a
//! `Record`, and the text as the service gives it) must still give them.

use parlour_engine::front::Shown;
use parlour_engine::{AnyGame, MoveInput, Record, Registry};
use std::fmt::Write as _;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/position_text.tsv");

/// A small deterministic generator (no dependence on a crate's streams).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Positions along a seeded walk from the start: every fourth, and the
/// last.
fn walk(game: &dyn AnyGame, seed: u64, plies: usize) -> Vec<String> {
    let mut rng = Lcg(seed);
    let mut state = game.start();
    let mut out = vec![state.position.clone()];
    for ply in 0..plies {
        let (_, moves) = game.moves(state.record.clone()).unwrap();
        if moves.is_empty() {
            break;
        }
        let m = &moves[rng.below(moves.len())];
        state = game.apply(state.record.clone(), &MoveInput::Notation(m.notation.clone())).unwrap().state;
        if ply % 4 == 3 {
            out.push(state.position.clone());
        }
    }
    out.push(state.position.clone());
    out
}

/// The pairs of a position text, as written.
fn pairs(text: &str) -> Vec<(String, String)> {
    text.split(';')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.trim().to_string(), v.trim().to_string())
        })
        .collect()
}

fn join(p: &[(String, String)]) -> String {
    p.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
}

/// Damaged versions of `text`: each pair dropped, doubled, emptied, given
/// a foreign value; lists with a cell changed, repeated, or another list's
/// cell; pairs reordered; an unknown key; syntax errors.
fn damaged(text: &str, rng: &mut Lcg, cells: &[&str]) -> Vec<String> {
    let p = pairs(text);
    let mut out = vec![text.to_string(), text.replace("; ", " ;  "), format!(" {text};;")];
    for i in 0..p.len() {
        let mut q = p.clone();
        q.remove(i);
        out.push(join(&q));
        let mut q = p.clone();
        q.push(p[i].clone());
        out.push(join(&q));
        let mut q = p.clone();
        q[i].1 = String::new();
        out.push(join(&q));
        let mut q = p.clone();
        q[i].1 = ["x", "7", "none", "white", "red:1", "99999999999", "-1"][rng.below(7)].to_string();
        out.push(join(&q));
        let list: Vec<&str> = p[i].1.split(',').collect();
        if list.len() > 1 {
            let mut q = p.clone();
            let mut l = list.clone();
            let at = rng.below(l.len());
            l[at] = cells[rng.below(cells.len())];
            q[i].1 = l.join(",");
            out.push(join(&q));
            let mut q = p.clone();
            let mut l = list.clone();
            l.push(list[rng.below(list.len())]);
            q[i].1 = l.join(",");
            out.push(join(&q));
            let mut q = p.clone();
            let mut l = list.clone();
            l[rng.below(list.len())] = "zz99";
            q[i].1 = l.join(", ");
            out.push(join(&q));
        }
    }
    let mut q = p.clone();
    q.reverse();
    out.push(join(&q));
    let mut q = p.clone();
    q.insert(rng.below(p.len() + 1), ("colour".to_string(), "blue".to_string()));
    out.push(join(&q));
    out.push(format!("{text}; =3"));
    out.push(format!("{text}; justtext"));
    out.push(format!("{text}; ply=2; max_plies=1"));
    out.push(format!("{text}; resigned=red"));
    out
}

/// A 64-bit FNV-1a hash: the fixture names a text by it (the texts are
/// made again from the walks).
fn fnv(s: &str) -> String {
    let h = s.bytes().fold(0xcbf29ce484222325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100000001b3));
    format!("{h:016x}")
}

/// An answer as the fixture writes it: the canonical text's hash, or the
/// error.
fn answer(r: Result<String, parlour_engine::RulesError>) -> String {
    match r {
        Ok(text) => format!("ok\t{}", fnv(&text)),
        Err(e) => {
            format!("err\t{:?}\t{}\t{}\t{}", e.kind, e.field.unwrap_or_default(), e.cell.unwrap_or_default(), e.message)
        }
    }
}

/// Every game's texts and their answers by way of a `Record`.
fn cases() -> Vec<(String, String, String, String)> {
    let registry = Registry::new();
    let mut out = Vec::new();
    for (gi, game) in registry.all().enumerate() {
        let d = game.description();
        let cells: Vec<&str> = d.cells.iter().map(|c| c.name.as_str()).collect();
        let mut rng = Lcg(gi as u64 + 1);
        for seed in 0..1 {
            for (pi, text) in walk(game, seed * 31 + gi as u64, 40).iter().enumerate() {
                if pi % 4 != 0 {
                    continue;
                }
                for t in damaged(text, &mut rng, &cells) {
                    let r = Record::parse(&t).and_then(|r| game.load(r)).map(|v| v.position);
                    out.push((d.id.to_string(), d.variant.to_string(), t, answer(r)));
                }
            }
        }
    }
    out
}

#[test]
fn position_texts_give_the_answers_they_gave_before_the_direct_reader() {
    let cases = cases();
    if std::env::var_os("PARLOUR_WRITE_POSITION_TEXT").is_some() {
        let mut s = String::new();
        for (g, v, t, a) in &cases {
            writeln!(s, "{g}\t{v}\t{}\t{a}", fnv(t)).unwrap();
        }
        std::fs::write(FIXTURE, s).unwrap();
        return;
    }
    let want = std::fs::read_to_string(FIXTURE).unwrap();
    let want: Vec<&str> = want.lines().collect();
    assert_eq!(want.len(), cases.len(), "the walks or damages changed: rewrite the fixture at the old commit");
    let registry = Registry::new();
    let mut oks = 0;
    for ((g, v, t, a), line) in cases.iter().zip(&want) {
        let (wg, rest) = line.split_once('\t').unwrap();
        let (wv, rest) = rest.split_once('\t').unwrap();
        let (wt, wa) = rest.split_once('\t').unwrap();
        assert_eq!((g.as_str(), v.as_str(), fnv(t).as_str()), (wg, wv, wt), "the cases changed: {t}");
        assert_eq!(a, wa, "{g} {v}: `{t}` by way of a Record");
        let game = registry.get(g, v).unwrap();
        let direct = answer(game.load_given(t.as_str().into(), Shown::TEXT).map(|v| v.position));
        assert_eq!(direct, wa, "{g} {v}: `{t}` read straight from the text");
        oks += wa.starts_with("ok\t") as usize;
    }
    // The damages must reach the readers' checks, not only the syntax.
    assert!(oks > 50 && oks < cases.len() / 2, "{oks} of {} texts read", cases.len());
}

/// Contiguity's cell names read by bytes (`board::parse_cell`) as they were
/// read by characters before: every string of up to four characters from an
/// alphabet of digits, lane letters, others and white space.
#[test]
fn contiguity_cell_names_parse_as_before() {
    use parlour_engine::contiguity::board::{parse_cell, LANE_NAMES};
    fn before(name: &str) -> Option<(u8, u8)> {
        let name = name.trim();
        let l = name.chars().last()?;
        let ln = LANE_NAMES.iter().position(|&x| x == l)? as u8;
        let digits = &name[..name.len() - 1];
        if digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let col: u8 = digits.parse().ok()?;
        (1..=30).contains(&col).then_some((col, ln))
    }
    let alphabet = ["0", "1", "2", "3", "9", "a", "d", "e", " ", "é", "-"];
    let mut names = vec![String::new()];
    for _ in 0..4 {
        let longer: Vec<String> = names.iter().flat_map(|n| alphabet.iter().map(move |c| format!("{n}{c}"))).collect();
        names.extend(longer);
    }
    names.sort();
    names.dedup();
    let mut read = 0;
    for n in &names {
        assert_eq!(parse_cell(n).is_some(), before(n).is_some(), "{n:?}");
        if let Some(c) = parse_cell(n) {
            let (col, lane) = before(n).unwrap();
            assert_eq!(parlour_engine::contiguity::board::cell_name(c), format!("{col}{}", LANE_NAMES[lane as usize]));
            read += 1;
        }
    }
    assert!(read > 100, "{read} names read");
}
