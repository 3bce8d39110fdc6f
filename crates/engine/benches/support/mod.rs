//! Shared by the engine benchmarks (`benches/engine.rs`) and the test that
//! checks their data (`tests/bench_positions.rs`): typed games by id, and
//! the fixed positions of every game's `src/<game>/positions.txt`.
//!
//! The registry hands out `dyn AnyGame`, which speaks text; benchmarks need
//! the typed [`Game`] so they time the rules and nothing else. [`with_game`]
//! finds a game by id and variant in the engine's one list of games
//! ([`for_each_game`]) and calls a generic visitor with it, wrapped in
//! [`Bounded`] exactly as the service serves it.
#![allow(dead_code)]

use parlour_engine::playout::random_playout;
use parlour_engine::{for_each_game, Bounded, Game, GameVisitor, Outcome, Record, Registry};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Something to do with one typed game.
pub trait Visit {
    type Out;
    fn visit<G: Game>(self, game: &G) -> Self::Out;
}

/// Calls `v` with the game `id` in `variant`, as the registry builds it
/// (the one list, [`for_each_game`]); `None` when there is no such game.
pub fn with_game<V: Visit>(id: &str, variant: &str, v: V) -> Option<V::Out> {
    struct Find<'a, V: Visit> {
        id: &'a str,
        variant: &'a str,
        v: Option<V>,
        out: Option<V::Out>,
    }
    impl<V: Visit> GameVisitor for Find<'_, V> {
        fn visit<G: Game>(&mut self, g: Bounded<G>) {
            let d = g.description();
            if d.id == self.id && d.variant == self.variant {
                if let Some(v) = self.v.take() {
                    self.out = Some(v.visit(&g));
                }
            }
        }
    }
    let mut find = Find { id, variant, v: Some(v), out: None };
    for_each_game(&mut find);
    find.out
}

/// Every (id, variant) the registry serves, in its order.
pub fn all_games() -> Vec<(&'static str, &'static str)> {
    Registry::new().all().map(|g| (g.description().id, g.description().variant)).collect()
}

/// Parses a position of a typed game from its text.
pub fn parse<G: Game>(game: &G, text: &str) -> G::Position {
    let record = Record::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    game.from_record(record).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays a seeded greedy game from `pos` for at most `plies` plies: each
/// player wins at once when it can, else makes the move whose result
/// [`Game::heuristic`] likes best for it, ties broken by the seeded shuffle.
/// Returns the position reached and the plies made.
pub fn greedy_playout<G: Game>(g: &G, pos: &G::Position, seed: u64, plies: usize) -> (G::Position, usize) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    for ply in 0..plies {
        moves.clear();
        g.legal_moves(&pos, &mut moves);
        if moves.is_empty() {
            return (pos, ply);
        }
        moves.shuffle(&mut rng);
        let me = g.to_move(&pos);
        let mut best = (f64::NEG_INFINITY, moves[0]);
        for &m in &moves {
            let mut next = pos.clone();
            g.play(&mut next, m);
            let v = match g.outcome(&next) {
                Outcome::Won(w) if w.contains(&me) => 2.0,
                _ => g.heuristic(&next, me),
            };
            if v > best.0 {
                best = (v, m);
            }
        }
        g.play(&mut pos, best.1);
    }
    (pos, plies)
}

/// [`random_playout`] or [`greedy_playout`].
type Playout<G> = fn(&G, &<G as Game>::Position, u64, usize) -> (<G as Game>::Position, usize);

/// One line of `positions.txt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    pub game: String,
    pub variant: String,
    /// `start`, `mid` or `end`.
    pub label: String,
    /// How the position was made: `start`, `fixed` (hand-written), or
    /// `random|greedy seed=S plies=N` (N plies of a seeded random game,
    /// [`random_playout`], or greedy one, [`greedy_playout`], from the start).
    pub origin: String,
    /// Perft counts from depth 1 up.
    pub perft: Vec<u64>,
    /// The canonical position text.
    pub position: String,
}

/// The positions of the `positions.txt` files: `game | variant | label | origin |
/// perft d1,d2,... | position`, `#` comments.
pub fn positions() -> Vec<BenchPosition> {
    parlour_engine::data::lines(parlour_engine::data::POSITIONS)
        .map(|e| {
            let l = e.text;
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 6, "{e}: 6 fields expected");
            BenchPosition {
                game: f[0].to_string(),
                variant: f[1].to_string(),
                label: f[2].to_string(),
                origin: f[3].to_string(),
                perft: f[4]
                    .strip_prefix("perft ")
                    .unwrap_or_else(|| panic!("{e}: `perft ...` expected"))
                    .split(',')
                    .map(|n| n.trim().parse().unwrap_or_else(|err| panic!("{e}: {n}: {err}")))
                    .collect(),
                position: f[5].to_string(),
            }
        })
        .collect()
}

/// The hand-written play positions of the Squeeze family, used instead of
/// the start (a pre-game of set-up actions): docs/rules/squeeze.md and
/// `squeeze::tests::perft_*`.
pub const SQUARE_PLAY: &str = "to_move=white; white=a3,h6; black=c1,f8; \
    stones=f2,c3,g3,d4,e4,c5,e5,f5,b6,d6,e6,c7; captured=white:0,black:7; bait=black:7";
pub const HEX_PLAY: &str = "to_move=white; white=a1,e9,i1; black=a5,e1,i5; \
    stones=b3,c3,c5,d2,d5,e3,e5,e7,f4,g2,g4,h3; captured=white:0,black:7; bait=black:7";

/// Plies of the `mid` positions: a seeded random playout this long from the
/// start, about a third of a random game where random games end (the
/// Squeeze family's start is a pre-game of set-up actions first). A game
/// not named here gets [`DEFAULT_MID_PLIES`], or a third of its first
/// seeded random game if that is shorter ([`Generate`]): a new game needs
/// no line here.
pub fn mid_plies(game: &str, variant: &str) -> Option<usize> {
    match (game, variant) {
        ("scala", "original") => Some(60),
        ("scala", _) => Some(15),
        ("squeeze" | "hex-squeeze", _) => Some(50),
        ("swish" | "hex-swish", _) => Some(30),
        ("contiguity" | "shoulder-to-shoulder", _) => Some(DEFAULT_MID_PLIES),
        _ => None,
    }
}

/// The `mid` plies of a game [`mid_plies`] does not name, at most.
pub const DEFAULT_MID_PLIES: usize = 40;

/// Seeds tried for a `mid` or an `end` position before giving up.
pub const SEEDS: u64 = 10_000;

/// The `end` positions are this many plies before the end of a won game:
/// the loser to move, the winner one move from winning.
pub const END_BEFORE: usize = 2;

/// Random playouts are cut here: random Contiguity and Shoulder to
/// Shoulder games almost never end (random moves rarely connect a group).
pub const PLAYOUT_CAP: usize = 1_000;

/// Makes the positions of one game as `positions.txt` holds them (with
/// perft counts to `depth`):
/// - `start`: the start; for the Squeeze family the fixed play position;
/// - `mid`: a seeded random playout of [`mid_plies`] from the start (the
///   first seed from 1 up whose game is then in play; [`SEEDS`] at most);
/// - `end`: [`END_BEFORE`] plies before the end of the first seeded game,
///   from seed 1 up, won within [`PLAYOUT_CAP`] plies and still in play
///   then. Greedy games ([`greedy_playout`]) except for Scala, whose random
///   games end quickly and greedy ones often never.
pub struct Generate {
    pub depth: u32,
}

impl Visit for Generate {
    type Out = Vec<BenchPosition>;
    fn visit<G: Game>(self, g: &G) -> Vec<BenchPosition> {
        let d = g.description();
        let text = |p: &G::Position| g.to_record(p).to_string();
        let start = match d.id {
            "squeeze" | "swish" => (parse(g, SQUARE_PLAY), "fixed".to_string()),
            "hex-squeeze" | "hex-swish" => (parse(g, HEX_PLAY), "fixed".to_string()),
            _ => (g.start(), "start".to_string()),
        };
        let plies = mid_plies(d.id, d.variant).unwrap_or_else(|| {
            // A short game (one that random play ends within a few dozen
            // plies): a third of its first seeded random game.
            let (_, n) = random_playout(g, &g.start(), 1, PLAYOUT_CAP);
            DEFAULT_MID_PLIES.min(n / 3).max(1)
        });
        let mid = (1..=SEEDS)
            .find_map(|seed| {
                let (p, n) = random_playout(g, &g.start(), seed, plies);
                (n == plies && !g.outcome(&p).is_over() && g.phase(&p) == "play")
                    .then(|| (p, format!("random seed={seed} plies={plies}")))
            })
            .unwrap_or_else(|| {
                panic!("{} {}: no random game of seeds 1..={SEEDS} is in play after {plies} plies", d.id, d.variant)
            });
        let (kind, play): (_, Playout<G>) =
            if d.id == "scala" { ("random", random_playout::<G>) } else { ("greedy", greedy_playout::<G>) };
        let end = (1..=SEEDS)
            .find_map(|seed| {
                let (last, n) = play(g, &g.start(), seed, PLAYOUT_CAP);
                if n <= END_BEFORE || !matches!(g.outcome(&last), Outcome::Won(_)) {
                    return None;
                }
                let plies = n - END_BEFORE;
                let (p, _) = play(g, &g.start(), seed, plies);
                (g.phase(&p) == "play").then(|| (p, format!("{kind} seed={seed} plies={plies}")))
            })
            .unwrap_or_else(|| panic!("{} {}: no {kind} game of seeds 1..={SEEDS} is won", d.id, d.variant));
        [("start", start), ("mid", mid), ("end", end)]
            .into_iter()
            .map(|(label, (p, origin))| BenchPosition {
                game: d.id.to_string(),
                variant: d.variant.to_string(),
                label: label.to_string(),
                origin,
                perft: (1..=self.depth).map(|k| parlour_engine::playout::perft(g, &p, k)).collect(),
                position: text(&p),
            })
            .collect()
    }
}

impl BenchPosition {
    /// The line of a `positions.txt`.
    pub fn line(&self) -> String {
        let perft: Vec<String> = self.perft.iter().map(u64::to_string).collect();
        format!(
            "{} | {} | {} | {} | perft {} | {}",
            self.game,
            self.variant,
            self.label,
            self.origin,
            perft.join(","),
            self.position
        )
    }
}

/// The folder under `crates/engine/src` of the game a visitor is handed
/// (from its type: `parlour_engine::<folder>::<Game>`), where its data
/// files live.
pub struct Folder;

impl Visit for Folder {
    type Out = String;
    fn visit<G: Game>(self, _: &G) -> String {
        let name = std::any::type_name::<G>();
        name.split(['<', '>', ','])
            .filter_map(|path| path.trim().strip_prefix("parlour_engine::"))
            .filter_map(|path| path.split_once("::").map(|(folder, _)| folder))
            .find(|folder| *folder != "bounded")
            .unwrap_or_else(|| panic!("no game folder in {name}"))
            .to_string()
    }
}
