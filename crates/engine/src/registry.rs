//! The games by id and variant.

use crate::bounded::Bounded;
use crate::describe::Description;
use crate::error::RulesError;
use crate::front::AnyGame;
use crate::game::Game;

/// Something done with every game and variant: see [`for_each_game`].
pub trait GameVisitor {
    /// Called once per game and variant, with the game as the service serves
    /// it (wrapped in [`Bounded`]).
    fn visit<G: Game>(&mut self, game: Bounded<G>);
}

/// THE list of games, in the order the service lists them. The registry,
/// the engine benchmarks (`benches/support`), the perft and position tests
/// and the load test (`parlour bench`, through the registry) all take their
/// games from here: adding a game is one line below (docs/adding-a-game.md).
pub fn for_each_game(v: &mut impl GameVisitor) {
    for var in crate::contiguity::Variant::ALL {
        v.visit(Bounded::new(crate::contiguity::Contiguity::new(var)));
    }
    for var in crate::scala::Variant::ALL {
        v.visit(Bounded::new(crate::scala::Scala::new(var)));
    }
    for var in crate::shoulder::Variant::ALL {
        v.visit(Bounded::new(crate::shoulder::ShoulderToShoulder::new(var)));
    }
    // four games (each its own id, one variant) from one folder
    for id in crate::squeeze::GameId::ALL {
        v.visit(Bounded::new(crate::squeeze::Squeeze::new(id)));
    }
}

/// Every game and variant the service knows.
pub struct Registry {
    games: Vec<Box<dyn AnyGame>>,
}

impl Default for Registry {
    fn default() -> Self {
        Self::new()
    }
}

impl Registry {
    /// All games, each in all its variants, wrapped in [`Bounded`]: the
    /// games of [`for_each_game`].
    pub fn new() -> Self {
        struct Boxed(Vec<Box<dyn AnyGame>>);
        impl GameVisitor for Boxed {
            fn visit<G: Game>(&mut self, game: Bounded<G>) {
                self.0.push(Box::new(game));
            }
        }
        let mut games = Boxed(Vec::new());
        for_each_game(&mut games);
        Registry { games: games.0 }
    }

    /// One entry per game id: the description of its default variant.
    pub fn list(&self) -> Vec<&Description> {
        self.games
            .iter()
            .map(|g| g.description())
            .filter(|d| d.variants.iter().any(|v| v.is_default && v.name == d.variant))
            .collect()
    }

    /// Every (game, variant) pair.
    pub fn all(&self) -> impl Iterator<Item = &dyn AnyGame> {
        self.games.iter().map(|g| g.as_ref())
    }

    /// A game by id and variant (`""` or `default` = the default variant).
    pub fn get(&self, id: &str, variant: &str) -> Result<&dyn AnyGame, RulesError> {
        let wanted = |d: &Description| {
            if variant.is_empty() {
                d.variants.iter().any(|v| v.is_default && v.name == d.variant)
            } else {
                d.variant == variant
            }
        };
        // Every rules call looks its game up: found in one pass, without
        // the list of the game's variants that explains a miss.
        if let Some(g) = self.games.iter().find(|g| g.description().id == id && wanted(g.description())) {
            return Ok(g.as_ref());
        }
        let of_game: Vec<&dyn AnyGame> =
            self.games.iter().map(|g| g.as_ref()).filter(|g| g.description().id == id).collect();
        if of_game.is_empty() {
            let mut ids: Vec<&str> = self.list().iter().map(|d| d.id).collect();
            ids.dedup();
            let msg = if id.is_empty() {
                format!("no game given; known games: {}", ids.join(", "))
            } else {
                format!("unknown game `{id}`; known games: {}", ids.join(", "))
            };
            return Err(RulesError::unknown_game("game", msg));
        }
        of_game.iter().copied().find(|g| wanted(g.description())).ok_or_else(|| {
            let names: Vec<&str> = of_game[0].description().variants.iter().map(|v| v.name).collect();
            RulesError::unknown_game(
                "variant",
                format!("`{id}` has no variant `{variant}`; its variants: {}", names.join(", ")),
            )
        })
    }
}
