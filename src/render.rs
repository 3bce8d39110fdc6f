//! Board pictures: a game description and a state drawn as SVG (the
//! RenderBoard call).
//!
//! The shape of the cells comes from the board's own links: a board whose
//! cells link `next`/`prev` is a ring (Contiguity: each cell an annular
//! sector around the centre); one with `n`/`s` links is a square grid
//! (squares; Scala's hole is simply where no cell is); any other is a hex grid
//! (pointy-top hexagons). Sizes follow the distance between linked cells.
//! Drawing is in board units (the description's x and y) inside a `viewBox`;
//! `width` sets the pixel size.

use crate::pb;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;

/// How to draw: a request's options, borrowed from it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// The move that led to the state: path arrow and crossed-out captures.
    pub last_move: Option<&'a pb::Move>,
    /// Cells to highlight.
    pub highlight: &'a [String],
    /// Dark theme instead of light.
    pub dark: bool,
    /// Width in pixels.
    pub width: u32,
    /// Write cell names.
    pub cell_names: bool,
}

/// The default width in pixels.
pub const DEFAULT_WIDTH: u32 = 480;
/// The largest width in pixels.
pub const MAX_WIDTH: u32 = 4096;

/// A picture drawn, as the parts its SVG is made of in order: what this
/// call worked out, and the board's cells (and their names) as drawn once
/// for every picture of the board. Issue #25: the lean path writes the
/// parts straight into the reply ([`Drawing::parts`]), so the cells'
/// drawing, most of a picture, is copied once, as an echo of the picture
/// would copy it; the trait's reply joins them ([`Drawing::svg`]).
pub struct Drawing {
    board: Arc<Board>,
    theme: usize,
    cell_names: bool,
    /// The `svg` element's opening, the title, the arrow's marker and the
    /// background.
    head: String,
    /// The highlights.
    middle: String,
    /// The pieces, the last move, and the end.
    tail: String,
    pub width: u32,
    pub height: u32,
}

impl Drawing {
    /// The SVG's parts, in order.
    pub fn parts(&self) -> [&str; 5] {
        let names = if self.cell_names { self.board.names[self.theme].as_str() } else { "" };
        [&self.head, &self.board.cells[self.theme], &self.middle, names, &self.tail]
    }

    /// The SVG's length in bytes.
    pub fn svg_len(&self) -> usize {
        self.parts().iter().map(|p| p.len()).sum()
    }

    /// The SVG, joined.
    pub fn svg(&self) -> String {
        self.parts().concat()
    }
}

struct Theme {
    background: &'static str,
    cell: &'static str,
    cell_dark: &'static str,
    line: &'static str,
    text: &'static str,
    highlight: &'static str,
    arrow: &'static str,
    capture: &'static str,
}

const LIGHT: Theme = Theme {
    background: "#faf7f0",
    cell: "#e9dfc8",
    cell_dark: "#b99b6b",
    line: "#6b5a3e",
    text: "#3b3326",
    highlight: "#2f9e44",
    arrow: "#1c7ed6",
    capture: "#e03131",
};

const DARK: Theme = Theme {
    background: "#1d1f23",
    cell: "#3a3f47",
    cell_dark: "#2a2d33",
    line: "#8a93a0",
    text: "#d8dde4",
    highlight: "#69db7c",
    arrow: "#4dabf7",
    capture: "#ff6b6b",
};

/// The shape every cell of a board has.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// Annular sectors around (0, 0); `sectors` cells to a lane.
    Ring { sectors: usize },
    /// Squares of side `size`.
    Square { size: f64 },
    /// Pointy-top hexagons `size` apart (centre to centre).
    Hex { size: f64 },
}

fn shape(cells: &[pb::Cell], at: &HashMap<&str, (f64, f64)>) -> Shape {
    let dirs = |d: &str| cells.iter().any(|c| c.neighbors.iter().any(|n| n.relation == "adjacent" && n.direction == d));
    // The nearest linked cell's distance.
    let mut spacing = f64::INFINITY;
    for c in cells {
        for n in c.neighbors.iter().filter(|n| n.relation == "adjacent") {
            if let Some(&(x, y)) = at.get(n.cell.as_str()) {
                let d = ((x - c.x).powi(2) + (y - c.y).powi(2)).sqrt();
                if d > 1e-6 {
                    spacing = spacing.min(d);
                }
            }
        }
    }
    if !spacing.is_finite() {
        spacing = 1.0;
    }
    if dirs("next") {
        // As many sectors as cells on the first cell's circle.
        let r0 = cells.first().map_or(1.0, |c| c.x.hypot(c.y));
        let ring = cells.iter().filter(|c| (c.x.hypot(c.y) - r0).abs() < 1e-3).count();
        Shape::Ring { sectors: ring.max(3) }
    } else if dirs("n") && dirs("s") {
        Shape::Square { size: spacing }
    } else {
        Shape::Hex { size: spacing }
    }
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    esc_into(&mut o, s);
    o
}

/// `s` escaped for XML text and attributes, appended to `o`.
fn esc_into(o: &mut String, s: &str) {
    if !s.bytes().any(|b| matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'')) {
        o.push_str(s);
        return;
    }
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
}

/// The fill of a piece by its owner (the position key) and seat order.
fn piece_colours(owner: &str, seat: Option<usize>) -> (&'static str, &'static str) {
    match owner {
        "white" => ("#f8f9fa", "#343a40"),
        "black" => ("#212529", "#adb5bd"),
        "red" => ("#e03131", "#5c0f0f"),
        "green" => ("#2f9e44", "#0b3d17"),
        "blue" => ("#1971c2", "#0a2d52"),
        "stones" => ("#868e96", "#343a40"),
        _ => match seat {
            Some(0) => ("#f8f9fa", "#343a40"),
            Some(1) => ("#212529", "#adb5bd"),
            _ => ("#f59f00", "#5f3b00"),
        },
    }
}

/// The fill of a cell by its tags.
fn cell_fill(tags: &[String], theme: &Theme) -> &'static str {
    for t in tags {
        match t.as_str() {
            "colour:dark" => return theme.cell_dark,
            "colour:red" => return "#f3c1c1",
            "colour:green" => return "#c3e6cb",
            "colour:blue" => return "#c5d8f2",
            _ => {}
        }
    }
    theme.cell
}

/// The outline of a cell, as SVG path data, and its bounding box.
fn outline(shape: Shape, x: f64, y: f64) -> (String, [f64; 4]) {
    let mut d = String::new();
    match shape {
        Shape::Square { size } => {
            let h = size / 2.0;
            let _ = write!(d, "M{:.3},{:.3}h{:.3}v{:.3}h{:.3}Z", x - h, y - h, size, size, -size);
            (d, [x - h, y - h, x + h, y + h])
        }
        Shape::Hex { size } => {
            let r = size / 3f64.sqrt();
            let mut bb = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
            for i in 0..6 {
                let a = std::f64::consts::PI / 180.0 * (60.0 * i as f64 - 90.0);
                let (px, py) = (x + r * a.cos(), y + r * a.sin());
                let _ = write!(d, "{}{:.3},{:.3}", if i == 0 { 'M' } else { 'L' }, px, py);
                bb = [bb[0].min(px), bb[1].min(py), bb[2].max(px), bb[3].max(py)];
            }
            d.push('Z');
            (d, bb)
        }
        Shape::Ring { sectors } => {
            let r = (x * x + y * y).sqrt();
            let a = y.atan2(x);
            let half = std::f64::consts::PI / sectors as f64;
            let (r0, r1) = (r - 0.5, r + 0.5);
            let p = |rr: f64, aa: f64| (rr * aa.cos(), rr * aa.sin());
            let (a0, a1) = (a - half, a + half);
            let (x0, y0) = p(r1, a0);
            let (x1, y1) = p(r1, a1);
            let (x2, y2) = p(r0, a1);
            let (x3, y3) = p(r0, a0);
            let _ = write!(
                d,
                "M{x0:.3},{y0:.3}A{r1:.3},{r1:.3} 0 0 1 {x1:.3},{y1:.3}L{x2:.3},{y2:.3}A{r0:.3},{r0:.3} 0 0 0 {x3:.3},{y3:.3}Z"
            );
            let xs = [x0, x1, x2, x3, x + 0.5, x - 0.5];
            let ys = [y0, y1, y2, y3, y + 0.5, y - 0.5];
            let min = |v: &[f64]| v.iter().cloned().fold(f64::MAX, f64::min);
            let max = |v: &[f64]| v.iter().cloned().fold(f64::MIN, f64::max);
            (d, [min(&xs), min(&ys), max(&xs), max(&ys)])
        }
    }
}

/// Where a cell is, its centre as a circle's attributes (`cx="…"
/// cy="…"`), and a piece's opening tag there up to its owner, written
/// once.
struct Spot {
    x: f64,
    y: f64,
    xy: String,
    open: String,
}

/// What a board's pictures share, worked out once per game and variant
/// (issue #25: drawn every call, the cells' outlines and names, the
/// names' table and the frame's numbers were most of a RenderBoard):
/// where each cell is, the cells' shape and size, the picture's frame, and
/// the cells and their names drawn in each theme.
pub struct Board {
    /// Each cell's spot, by the cell's index.
    spots: Vec<Spot>,
    /// Each cell's index, by its name.
    at: HashMap<String, usize>,
    shape: Shape,
    unit: f64,
    /// The seats' names, in order (a piece's colour when its owner has
    /// none of its own).
    seats: Vec<String>,
    /// The frame's size in board units (the cells' extent and a margin).
    view: (f64, f64),
    /// The `svg` element's opening after its height (the `viewBox` and the
    /// game), and the title up to the seat to move.
    frame: String,
    /// The arrow's marker and the background, in the light and the dark
    /// theme.
    backdrop: [String; 2],
    /// The pieces' group's opening tag, a piece's radius and a king's
    /// crown's, as drawn.
    pieces_open: String,
    piece_r: String,
    crown_r: String,
    /// The cells' group, in the light and the dark theme.
    cells: [String; 2],
    /// The cell names' group, in the light and the dark theme.
    names: [String; 2],
    /// The pieces' styles met so far (a few a game: its owners and kinds).
    styles: std::sync::Mutex<Vec<Arc<PieceStyle>>>,
}

impl Board {
    /// The board of `desc`.
    pub fn new(desc: &pb::GameDescription) -> Board {
        let cells = desc.board.as_ref().map(|b| b.cells.as_slice()).unwrap_or(&[]);
        let at: HashMap<&str, (f64, f64)> = cells.iter().map(|c| (c.name.as_str(), (c.x, c.y))).collect();
        let shape = shape(cells, &at);
        let unit = match shape {
            Shape::Square { size } | Shape::Hex { size } => size,
            Shape::Ring { .. } => 1.0,
        };
        // Each cell's outline, the same in both themes, and the cells' extent.
        let mut bb = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
        let outlines: Vec<String> = cells
            .iter()
            .map(|c| {
                let (d, b) = outline(shape, c.x, c.y);
                bb = [bb[0].min(b[0]), bb[1].min(b[1]), bb[2].max(b[2]), bb[3].max(b[3])];
                d
            })
            .collect();
        if bb[0] > bb[2] {
            bb = [0.0, 0.0, 1.0, 1.0];
        }
        let pad = unit * 0.3;
        let (vx, vy, vw, vh) = (bb[0] - pad, bb[1] - pad, bb[2] - bb[0] + 2.0 * pad, bb[3] - bb[1] + 2.0 * pad);
        let frame = format!(
            r#"" viewBox="{vx:.3} {vy:.3} {vw:.3} {vh:.3}" data-game="{}" data-variant="{}"><title>{} ({}), "#,
            esc(&desc.game),
            esc(&desc.variant),
            esc(&desc.name),
            esc(&desc.variant)
        );
        let backdrop = |theme: &Theme| {
            format!(
                r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0L10,5L0,10Z" fill="{}"/></marker></defs><rect x="{vx:.3}" y="{vy:.3}" width="{vw:.3}" height="{vh:.3}" fill="{}"/>"#,
                theme.arrow, theme.background
            )
        };
        let drawn = |theme: &Theme| {
            let mut g = String::new();
            let _ = write!(g, r#"<g class="cells" stroke="{}" stroke-width="{:.3}">"#, theme.line, unit * 0.03);
            for (c, d) in cells.iter().zip(&outlines) {
                let _ = write!(
                    g,
                    r#"<path class="cell" data-cell="{}" d="{}" fill="{}"/>"#,
                    esc(&c.name),
                    d,
                    cell_fill(&c.tags, theme)
                );
            }
            g.push_str("</g>");
            g
        };
        let named = |theme: &Theme| {
            let mut g = String::new();
            let _ = write!(
                g,
                r#"<g class="names" fill="{}" font-family="sans-serif" font-size="{:.3}" text-anchor="middle" pointer-events="none">"#,
                theme.text,
                unit * 0.28
            );
            for c in cells {
                let _ = write!(g, r#"<text x="{:.3}" y="{:.3}">{}</text>"#, c.x, c.y + unit * 0.42, esc(&c.name));
            }
            g.push_str("</g>");
            g
        };
        let radius = unit * 0.36;
        let spot = |c: &pb::Cell| Spot {
            x: c.x,
            y: c.y,
            xy: format!(r#"cx="{:.3}" cy="{:.3}""#, c.x, c.y),
            open: format!(r#"<g class="piece" data-cell="{}" data-owner=""#, esc(&c.name)),
        };
        Board {
            spots: cells.iter().map(spot).collect(),
            at: cells.iter().enumerate().map(|(i, c)| (c.name.clone(), i)).collect(),
            shape,
            unit,
            seats: desc.players.iter().map(|p| p.name.clone()).collect(),
            view: (vw, vh),
            frame,
            backdrop: [backdrop(&LIGHT), backdrop(&DARK)],
            pieces_open: format!(r#"<g class="pieces" stroke-width="{:.3}">"#, unit * 0.05),
            piece_r: format!("{radius:.3}"),
            crown_r: format!("{:.3}", radius * 0.55),
            cells: [drawn(&LIGHT), drawn(&DARK)],
            names: [named(&LIGHT), named(&DARK)],
            styles: Default::default(),
        }
    }

    /// The style of `owner`'s pieces of `kind`, written the first time a
    /// picture of the board shows one.
    fn style(&self, owner: &str, kind: &str) -> Arc<PieceStyle> {
        let mut styles = self.styles.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = styles.iter().find(|s| s.owner == owner && s.kind == kind) {
            return Arc::clone(s);
        }
        let s = Arc::new(PieceStyle::new(self, owner, kind));
        // A game has a few owners and kinds; the cap only bounds the
        // memory should a caller ever name others.
        if styles.len() < MAX_STYLES {
            styles.push(Arc::clone(&s));
        }
        s
    }

    /// The spot of the cell named `name`; the error names `field`.
    fn spot(&self, field: &str, name: &str) -> Result<&Spot, (String, String)> {
        self.at
            .get(name)
            .map(|&i| &self.spots[i])
            .ok_or_else(|| (field.to_string(), format!("no cell named `{name}` on this board")))
    }
}

/// Draws `state` on the board of `desc`. Errors name the request field.
pub fn render(desc: &pb::GameDescription, state: &pb::GameState, opts: &Options) -> Result<Drawing, (String, String)> {
    let pieces = state.pieces.iter().map(|p| Piece { cell: &p.cell, index: None, owner: &p.owner, kind: &p.kind });
    render_on(&Arc::new(Board::new(desc)), &state.to_move, pieces, opts)
}

/// A piece as a picture shows it: its cell (by name, and by index where
/// the caller knows it), its owner as the position names it
/// (`GameState.pieces`' `owner`) and its kind.
#[derive(Clone, Copy, Debug)]
pub struct Piece<'a> {
    pub cell: &'a str,
    /// The cell's index on the board (`Cell.index`), when known: no
    /// lookup by name.
    pub index: Option<usize>,
    pub owner: &'a str,
    pub kind: &'a str,
}

/// The most piece styles a board keeps.
const MAX_STYLES: usize = 64;

/// What a piece's drawing takes from its owner and kind, written once for
/// each owner and kind met on the board ([`Board::style`]): after the
/// cell's opening, the owner and kind and the circle's opening
/// (`middle`); after its centre, the rest of the piece (`end`), or for a
/// king the circle and the crown's opening, then after the centre again
/// the crown (`crown`).
struct PieceStyle {
    owner: String,
    kind: String,
    middle: String,
    end: String,
    crown: String,
}

impl PieceStyle {
    fn new(board: &Board, owner: &str, kind: &str) -> Self {
        let (fill, stroke) = piece_colours(owner, board.seats.iter().position(|s| *s == owner));
        let mut middle = String::new();
        esc_into(&mut middle, owner);
        middle.push_str(r#"" data-kind=""#);
        esc_into(&mut middle, kind);
        middle.push_str(r#""><circle "#);
        let piece = format!(r#" r="{}" fill="{fill}" stroke="{stroke}"/>"#, board.piece_r);
        let crown = format!(r#" r="{}" fill="none" stroke="{stroke}"/></g>"#, board.crown_r);
        let (end, crown) = if kind == "king" { (piece + "<circle ", crown) } else { (piece + "</g>", String::new()) };
        PieceStyle { owner: owner.into(), kind: kind.into(), middle, end, crown }
    }
}

/// [`render`] on a board worked out before ([`Board::new`]), of a state
/// given by who is to move and its pieces (the lean path draws from the
/// engine's view, with no `pb` state).
pub fn render_on<'a>(
    board: &Arc<Board>,
    to_move: &str,
    pieces: impl ExactSizeIterator<Item = Piece<'a>>,
    opts: &Options,
) -> Result<Drawing, (String, String)> {
    let theme = if opts.dark { &DARK } else { &LIGHT };
    let find = |field: &str, name: &str| board.spot(field, name).map(|s| (s.x, s.y));
    for h in opts.highlight {
        find("highlight", h)?;
    }
    let (shape, unit) = (board.shape, board.unit);

    // The picture's frame: the numbers written once for the board, the
    // size and the seat to move here.
    let width = opts.width;
    let height = ((width as f64) * board.view.1 / board.view.0).round().max(1.0) as u32;
    let mut head = String::with_capacity(128 + board.frame.len() + board.backdrop[0].len());
    let _ = write!(head, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"#);
    head.push_str(&board.frame);
    esc_into(&mut head, to_move);
    head.push_str(" to move</title>");
    head.push_str(&board.backdrop[usize::from(opts.dark)]);
    // Highlights.
    let mut middle = String::new();
    if !opts.highlight.is_empty() {
        let _ =
            write!(middle, r#"<g class="highlights" fill="{}" fill-opacity="0.45" stroke="none">"#, theme.highlight);
        for h in opts.highlight {
            let (x, y) = find("highlight", h)?;
            let (d, _) = outline(shape, x, y);
            let _ = write!(middle, r#"<path class="highlight" data-cell="{}" d="{}"/>"#, esc(h), d);
        }
        middle.push_str("</g>");
    }
    // Pieces: each cell's opening tag and centre as written once for the
    // board, and what follows from the piece's owner and kind written once
    // a call ([`PieceStyle`]), so a piece is four copies (no number
    // formatted, no name escaped).
    let radius = unit * 0.36;
    let mut tail = String::with_capacity(board.pieces_open.len() + 192 * pieces.len() + 16);
    tail.push_str(&board.pieces_open);
    let mut styles: Vec<Arc<PieceStyle>> = Vec::new();
    for p in pieces {
        let at = match p.index.and_then(|i| board.spots.get(i)) {
            Some(at) => at,
            None => board.spot("state.pieces", p.cell)?,
        };
        let style = match styles.iter().position(|s| s.owner == p.owner && s.kind == p.kind) {
            Some(i) => &styles[i],
            None => {
                styles.push(board.style(p.owner, p.kind));
                &styles[styles.len() - 1]
            }
        };
        tail.push_str(&at.open);
        tail.push_str(&style.middle);
        tail.push_str(&at.xy);
        tail.push_str(&style.end);
        if p.kind == "king" {
            // A crown: a smaller ring inside the piece.
            tail.push_str(&at.xy);
            tail.push_str(&style.crown);
        }
    }
    tail.push_str("</g>");
    // The last move: its path, and its captures crossed out.
    if let Some(m) = opts.last_move {
        let mut path: Vec<&str> = m.path.iter().map(String::as_str).collect();
        if path.is_empty() && !m.from_cell.is_empty() && !m.to_cell.is_empty() {
            path = vec![m.from_cell.as_str(), m.to_cell.as_str()];
        }
        let mut points = Vec::new();
        for c in &path {
            points.push(find("last_move.path", c)?);
        }
        let w = unit * 0.08;
        if points.len() >= 2 {
            let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x:.3},{y:.3}")).collect();
            let _ = write!(
                tail,
                r#"<g class="last-move" pointer-events="none"><polyline points="{}" fill="none" stroke="{}" stroke-width="{w:.3}" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.85" marker-end="url(#arrow)"/></g>"#,
                pts.join(" "),
                theme.arrow
            );
        } else if let Some(to) = (!m.to_cell.is_empty()).then_some(m.to_cell.as_str()).or(path.first().copied()) {
            let (x, y) = find("last_move.to", to)?;
            let _ = write!(
                tail,
                r#"<circle class="last-move" cx="{x:.3}" cy="{y:.3}" r="{:.3}" fill="none" stroke="{}" stroke-width="{w:.3}" pointer-events="none"/>"#,
                radius * 1.15,
                theme.arrow
            );
        }
        let k = radius * 0.8;
        for c in &m.captured {
            let (x, y) = find("last_move.captured", c)?;
            let _ = write!(
                tail,
                r#"<path class="captured" data-cell="{}" d="M{:.3},{:.3}L{:.3},{:.3}M{:.3},{:.3}L{:.3},{:.3}" stroke="{}" stroke-width="{w:.3}" stroke-linecap="round" pointer-events="none"/>"#,
                esc(c),
                x - k,
                y - k,
                x + k,
                y + k,
                x - k,
                y + k,
                x + k,
                y - k,
                theme.capture
            );
        }
    }
    tail.push_str("</svg>\n");
    Ok(Drawing {
        board: Arc::clone(board),
        theme: usize::from(opts.dark),
        cell_names: opts.cell_names,
        head,
        middle,
        tail,
        width,
        height,
    })
}

/// Reads the drawing options of a request; errors name the field.
pub fn options(r: &pb::RenderBoardRequest) -> Result<Options<'_>, (String, String)> {
    let dark = match r.theme.as_str() {
        "" | "light" => false,
        "dark" => true,
        other => return Err(("theme".into(), format!("unknown theme `{other}`; use `light` or `dark`"))),
    };
    let width = match r.width {
        0 => DEFAULT_WIDTH,
        w if (16..=MAX_WIDTH).contains(&w) => w,
        w => {
            return Err((
                "width".into(),
                format!("width {w} is out of range: 16 to {MAX_WIDTH} pixels, or 0 for {DEFAULT_WIDTH}"),
            ))
        }
    };
    Ok(Options { last_move: r.last_move.as_ref(), highlight: &r.highlight, dark, width, cell_names: r.cell_names })
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlour_engine::Registry;

    /// A board worked out once draws every picture as one worked out for
    /// that picture alone: every game, both themes, names or not, a
    /// highlight and a last move, one board for all of them in turn.
    #[test]
    fn a_board_kept_draws_as_a_board_made_for_the_picture() {
        for game in Registry::new().all() {
            let desc = crate::convert::description(game);
            let state = crate::convert::state(game, &game.start());
            let board = Arc::new(Board::new(&desc));
            let cells: Vec<String> = desc.board.as_ref().unwrap().cells.iter().map(|c| c.name.clone()).collect();
            let last_move = pb::Move {
                from_cell: cells[0].clone(),
                to_cell: cells[cells.len() - 1].clone(),
                captured: vec![cells[1].clone()],
                ..Default::default()
            };
            for dark in [false, true] {
                for cell_names in [false, true] {
                    for extras in [false, true] {
                        let opts = Options {
                            dark,
                            cell_names,
                            width: DEFAULT_WIDTH,
                            highlight: if extras { &cells[..2] } else { &[] },
                            last_move: extras.then_some(&last_move),
                        };
                        // The pieces by their cells' indices, as the lean
                        // path gives them.
                        let pieces = state.pieces.iter().map(|p| Piece {
                            cell: &p.cell,
                            index: cells.iter().position(|c| *c == p.cell),
                            owner: &p.owner,
                            kind: &p.kind,
                        });
                        let kept = render_on(&board, &state.to_move, pieces, &opts).unwrap();
                        let fresh = render(&desc, &state, &opts).unwrap();
                        let svg = kept.svg();
                        assert_eq!(svg, fresh.svg(), "{} {}", desc.game, desc.variant);
                        assert_eq!(svg.len(), kept.svg_len());
                        assert_eq!((kept.width, kept.height), (fresh.width, fresh.height));
                        for p in &state.pieces {
                            assert!(svg.contains(&format!(r#"class="piece" data-cell="{}""#, p.cell)));
                        }
                    }
                }
            }
        }
    }
}
