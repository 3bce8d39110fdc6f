//! The games by id and variant.

use crate::bounded::Bounded;
use crate::describe::Description;
use crate::dynamic::AnyGame;
use crate::error::RulesError;

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
    /// All games, each in all its variants, wrapped in [`Bounded`].
    pub fn new() -> Self {
        let mut games: Vec<Box<dyn AnyGame>> = Vec::new();
        for v in crate::contiguity::Variant::ALL {
            games.push(Box::new(Bounded::new(crate::contiguity::Contiguity::new(v))));
        }
        for v in crate::scala::Variant::ALL {
            games.push(Box::new(Bounded::new(crate::scala::Scala::new(v))));
        }
        for v in crate::shoulder::Variant::ALL {
            games.push(Box::new(Bounded::new(crate::shoulder::ShoulderToShoulder::new(v))));
        }
        for v in crate::squeeze::Variant::ALL {
            games.push(Box::new(Bounded::new(crate::squeeze::Squeeze::new(v))));
        }
        Registry { games }
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
        let wanted = |d: &Description| {
            if variant.is_empty() {
                d.variants.iter().any(|v| v.is_default && v.name == d.variant)
            } else {
                d.variant == variant
            }
        };
        of_game.iter().copied().find(|g| wanted(g.description())).ok_or_else(|| {
            let names: Vec<&str> = of_game[0].description().variants.iter().map(|v| v.name).collect();
            RulesError::unknown_game(
                "variant",
                format!("`{id}` has no variant `{variant}`; its variants: {}", names.join(", ")),
            )
        })
    }
}
