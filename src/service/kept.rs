//! Request messages kept from call to call on their thread (issue #25).
//!
//! A GenerateMoves, ApplyMove, Evaluate or RenderBoard request is a box
//! holding a [`pb::GameState`] with three strings (game, variant,
//! position): prost decodes it into a fresh box and fresh strings, four
//! allocations and, when the call ends, four frees; about 2.6 k
//! instructions a call, a tenth of a list's own work in the lists that
//! were short of their floor. Here the box of the
//! last request a thread finished, cleared but with its strings' room, is
//! the one the next request of that method on the thread is decoded into,
//! and goes back when the call drops it ([`Kept`]).
//!
//! The message decoded is the one prost decodes from the same bytes, and
//! the errors are prost's own, with the same field path: the fields are
//! merged by the message's generated `merge_field`, the state by prost's
//! `message::merge` into the kept state (`decode_is_prosts` checks both,
//! over valid, truncated and malformed requests). A request over
//! [`KEEP_BYTES`] is not kept, so one large request does not hold its
//! memory on a thread for good.

use crate::pb;
use bytes::Buf;
use prost::encoding::{decode_key, message, DecodeContext};
use prost::{DecodeError, Message};
use std::cell::Cell;
use std::ops::Deref;
use std::thread::LocalKey;

/// The largest request (its encoded bytes) whose box is kept when its call
/// ends. Every request the bench and the clients send in play is a few
/// hundred bytes.
pub(crate) const KEEP_BYTES: usize = 4096;

/// A request message whose box can be kept on a thread: the rules calls
/// whose first field is the state.
pub(crate) trait Reusable: Message + Default + Send + 'static {
    /// The message's name in prost's errors.
    const NAME: &'static str;
    /// The thread's kept box of this message.
    fn spare() -> &'static LocalKey<Cell<Option<Box<Self>>>>;
    /// The request's state (field 1).
    fn state_mut(&mut self) -> &mut Option<pb::GameState>;
    /// Empties the message as `clear` does, but a state only cleared, so
    /// its strings keep their room (and it stays in place: a state is some
    /// hundreds of bytes to move).
    fn clear_in_place(&mut self);
}

/// The tag of the state in every [`Reusable`] request.
const STATE_TAG: u32 = 1;

macro_rules! reusable {
    ($($t:ident { $($field:ident),* }),*) => {$(
        impl Reusable for pb::$t {
            const NAME: &'static str = stringify!($t);
            fn spare() -> &'static LocalKey<Cell<Option<Box<Self>>>> {
                thread_local!(static SPARE: Cell<Option<Box<pb::$t>>> = const { Cell::new(None) });
                &SPARE
            }
            fn state_mut(&mut self) -> &mut Option<pb::GameState> {
                &mut self.state
            }
            fn clear_in_place(&mut self) {
                // Every field named: a field added to the message and not
                // here does not compile.
                let pb::$t { state, $($field),* } = self;
                if let Some(state) = state {
                    state.clear();
                }
                // The other fields are a few bytes each, usually empty: set
                // to their defaults, as prost's `clear` sets them.
                $(*$field = Default::default();)*
            }
        }
    )*};
}
reusable!(
    GenerateMovesRequest { chosen_cells, view, state_form },
    ApplyMoveRequest { r#move, include_next_moves, view, state_form },
    EvaluateRequest { view, state_form },
    RenderBoardRequest { last_move, highlight, theme, width, cell_names, view, state_form }
);

/// A decoded request; its box goes back to the thread that drops it.
pub(crate) struct Kept<U: Reusable> {
    message: Option<Box<U>>,
    /// Whether the box is to be kept (the request was at most
    /// [`KEEP_BYTES`]).
    keep: bool,
}

impl<U: Reusable> Deref for Kept<U> {
    type Target = U;

    fn deref(&self) -> &U {
        self.message.as_deref().expect("a kept request holds its message until dropped")
    }
}

impl<U: Reusable> Drop for Kept<U> {
    fn drop(&mut self) {
        let Some(mut m) = self.message.take() else { return };
        if !self.keep {
            return;
        }
        m.clear_in_place();
        // A box already kept (a call that overlapped this one on the
        // thread) is freed.
        U::spare().with(|s| s.set(Some(m)));
    }
}

/// Decodes a request from `buf` as `U::decode` does, into the thread's
/// kept box of `U` if there is one.
pub(crate) fn decode<U: Reusable>(mut buf: impl Buf) -> Result<Kept<U>, DecodeError> {
    let keep = buf.remaining() <= KEEP_BYTES;
    let mut m = U::spare().with(Cell::take).unwrap_or_default();
    // A kept state (cleared, so equal to a new one) stays in place, and is
    // where the request's state is merged, as prost merges into the new one
    // its `get_or_insert_with` makes.
    let mut has_state = false;
    let ctx = DecodeContext::default();
    let mut merged = Ok(());
    while buf.has_remaining() {
        merged = decode_key(&mut buf).and_then(|(tag, wire_type)| {
            if tag == STATE_TAG {
                has_state = true;
                let state = m.state_mut().get_or_insert_with(Default::default);
                message::merge(wire_type, state, &mut buf, ctx.clone()).map_err(|mut e| {
                    e.push(U::NAME, "state");
                    e
                })
            } else {
                m.merge_field(tag, wire_type, &mut buf, ctx.clone())
            }
        });
        if merged.is_err() {
            break;
        }
    }
    if !has_state {
        // A request without a state (refused by the call): the next
        // request decodes into a new one.
        *m.state_mut() = None;
    }
    merged.map(|()| Kept { message: Some(m), keep })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn state(position: &str) -> pb::GameState {
        pb::GameState {
            game: "shoulder-to-shoulder".into(),
            variant: "two-player".into(),
            position: position.into(),
            ..Default::default()
        }
    }

    /// Requests of every field, big and small, with and without a state.
    fn requests() -> Vec<Vec<u8>> {
        let structured = pb::GameState {
            game: "squeeze".into(),
            to_move: "black".into(),
            pieces: vec![
                pb::Piece { cell: "a1".into(), owner: "black".into(), kind: "stone".into() },
                pb::Piece { cell: "h8".into(), owner: "white".into(), kind: "king".into() },
            ],
            fields: vec![pb::PositionField { key: "phase".into(), value: "play".into() }],
            ..Default::default()
        };
        let long = state(&"to_move=red; ".repeat(40));
        let huge = state(&"x".repeat(2 * KEEP_BYTES));
        let mv = pb::Move {
            notation: "a1-b2".into(),
            kind: 1,
            from_cell: "a1".into(),
            to_cell: "b2".into(),
            path: vec!["a1".into(), "b2".into()],
            bid: Some(3),
            ..Default::default()
        };
        let mut out = Vec::new();
        for s in [Some(state("to_move=red; red=a1")), Some(structured), Some(long), Some(huge), None] {
            out.push(
                pb::GenerateMovesRequest {
                    state: s.clone(),
                    chosen_cells: vec!["a1".into(), "c3".into()],
                    view: 2,
                    state_form: 3,
                }
                .encode_to_vec(),
            );
            out.push(pb::GenerateMovesRequest { state: s.clone(), ..Default::default() }.encode_to_vec());
            out.push(
                pb::ApplyMoveRequest {
                    state: s.clone(),
                    r#move: Some(mv.clone()),
                    include_next_moves: true,
                    view: 1,
                    state_form: 2,
                }
                .encode_to_vec(),
            );
            out.push(pb::EvaluateRequest { state: s.clone(), view: 2, state_form: 1 }.encode_to_vec());
            out.push(
                pb::RenderBoardRequest {
                    state: s,
                    last_move: Some(mv.clone()),
                    highlight: vec!["a1".into(), "b2".into()],
                    theme: "dark".into(),
                    width: 800,
                    cell_names: true,
                    view: 2,
                    state_form: 3,
                }
                .encode_to_vec(),
            );
        }
        // A state in two pieces (prost merges the second into the first),
        // and an unknown field.
        let mut twice = pb::EvaluateRequest { state: Some(state("a")), view: 1, state_form: 0 }.encode_to_vec();
        twice.extend(
            pb::EvaluateRequest {
                state: Some(pb::GameState { variant: String::new(), ..state("b") }),
                view: 0,
                state_form: 2,
            }
            .encode_to_vec(),
        );
        twice.extend([0xf8, 0x01, 0x05]);
        out.push(twice);
        out
    }

    /// Decodes `bytes` both ways and compares the message or the error.
    fn same<U: Reusable + PartialEq + std::fmt::Debug>(bytes: &[u8]) {
        let ours = decode::<U>(bytes);
        let prosts = U::decode(bytes);
        match (&ours, &prosts) {
            (Ok(a), Ok(b)) => assert_eq!(&**a, b, "{bytes:?}"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{bytes:?}"),
            _ => panic!("{bytes:?}: ours {:?}, prost's {prosts:?}", ours.as_ref().map(|m| &**m)),
        }
    }

    fn every_way(bytes: &[u8]) {
        same::<pb::GenerateMovesRequest>(bytes);
        same::<pb::ApplyMoveRequest>(bytes);
        same::<pb::EvaluateRequest>(bytes);
        same::<pb::RenderBoardRequest>(bytes);
    }

    #[test]
    fn decode_is_prosts() {
        // One thread, one after another: each decode takes the box the
        // one before left, whatever it held.
        let requests = requests();
        let mut rng = rand::rngs::StdRng::seed_from_u64(25);
        for _ in 0..3 {
            for r in &requests {
                every_way(r);
                // Cut short anywhere.
                for end in 0..r.len().min(300) {
                    every_way(&r[..end]);
                }
                // A byte or two changed.
                for _ in 0..if r.is_empty() { 0 } else { 200 } {
                    let mut m = r.clone();
                    for _ in 0..rng.random_range(1..3) {
                        let i = rng.random_range(0..m.len());
                        m[i] = rng.random();
                    }
                    every_way(&m);
                }
            }
        }
    }

    #[test]
    fn a_box_is_kept_only_for_a_small_request() {
        let small = pb::EvaluateRequest { state: Some(state("to_move=red")), view: 1, state_form: 1 }.encode_to_vec();
        let huge =
            pb::EvaluateRequest { state: Some(state(&"x".repeat(KEEP_BYTES))), ..Default::default() }.encode_to_vec();
        drop(decode::<pb::EvaluateRequest>(&huge[..]).unwrap());
        assert!(pb::EvaluateRequest::spare().with(Cell::take).is_none(), "a request over KEEP_BYTES is freed");
        let first = decode::<pb::EvaluateRequest>(&small[..]).unwrap();
        let room = first.state.as_ref().unwrap().position.as_ptr();
        drop(first);
        let kept = pb::EvaluateRequest::spare().with(Cell::take).expect("a small request's box is kept");
        assert_eq!(*kept, pb::EvaluateRequest { state: Some(pb::GameState::default()), ..Default::default() });
        assert!(kept.state.as_ref().unwrap().position.capacity() > 0, "the state's strings keep their room");
        pb::EvaluateRequest::spare().with(|s| s.set(Some(kept)));
        let again = decode::<pb::EvaluateRequest>(&small[..]).unwrap();
        assert_eq!(again.state.as_ref().unwrap().position.as_ptr(), room, "the next request is decoded into it");
        assert_eq!(*again, pb::EvaluateRequest::decode(&small[..]).unwrap());
    }
}
