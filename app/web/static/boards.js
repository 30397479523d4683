// The participant's boards: draws a "screen" (docs/web-api.md: what one seat may know, from the
// server) as SVG, its legal moves as focusable, labelled elements. No dependencies, no inline
// script or style (the pages run under a Content-Security-Policy without 'unsafe-inline').
//
//   renderScreen(container, screen, onAction)
//
// replaces the container's content; onAction(actionId, label) is called once when the person
// chooses one of screen.legal (by click, or Enter/Space on a focused move).

const SVG = "http://www.w3.org/2000/svg";

// Seat colours as ddalab-gui draws them (seatColour): red, blue, green, yellow.
const SEAT_COLOURS = ["#d63a32", "#2f6fc9", "#2e9b4a", "#e0b11c"];
// Their letters, drawn on every piece: a seat is never told by colour alone (red and green look
// alike to many).
const SEAT_LETTERS = ["R", "B", "G", "Y"];
const HIGHLIGHT = "#ff8c00";

// ---- small DOM helpers -------------------------------------------------------------------

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  setAll(node, attrs, children);
  return node;
}

function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, tag);
  setAll(node, attrs, children);
  return node;
}

function setAll(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs))
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  for (const child of children)
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
}

function svgText(x, y, text, attrs = {}) {
  return svg("text", { x, y, ...attrs }, [String(text)]);
}

// A focusable SVG element that acts as a button: click, Enter or Space call `activate`.
function asButton(node, label, activate) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.classList.add("move");
  node.append(svg("title", {}, [label]));
  node.addEventListener("click", (event) => {
    event.preventDefault();
    activate();
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      activate();
    }
  });
  return node;
}

function board(viewWidth, viewHeight, label) {
  return svg("svg", {
    viewBox: `0 0 ${viewWidth} ${viewHeight}`,
    class: "board",
    role: "group",
    "aria-label": label,
  });
}

// The label of a legal action as the server gave it.
function labelOf(screen, action) {
  const move = (screen.legal || []).find((m) => m.action === action);
  return move ? move.label : String(action);
}

// The legal moves with what each does (screen.legal[i].does, the game's description of its
// action: docs/web-api.md): the boards pick the move whose description matches what the person
// chose, never computing a game's action id.
function described(screen) {
  return (screen.legal || []).filter((m) => m.does && typeof m.does === "object");
}

// The first legal move whose description has every field of `fields`, or undefined.
function moveWhere(screen, fields) {
  return described(screen).find((m) =>
    Object.entries(fields).every(([key, value]) => m.does[key] === value));
}

// "You", "Opponent 1", as a sentence's subject.
function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---- what every board has: whose turn, the result, the gains when public -----------------

function headline(screen) {
  if (screen.actor === "over") {
    if (screen.winner === "you") return "Game over: you win";
    if (screen.winner === "none")
      return Array.isArray(screen.gains) && screen.gains.length > 1 ? "Game over: a draw" : "Game over";
    return `Game over: ${screen.winner} wins`;
  }
  if (screen.actor === "you") return "Your turn";
  if (screen.actor === "environment") return "The game deals…";
  return `${capitalised(screen.actor)} to move`;
}

function gainsLine(screen) {
  if (!Array.isArray(screen.gains)) return null;
  const parts = screen.gains.map((gain, player) => {
    // One opponent needs no number ("opponent 1" read as a score).
    const opponent = screen.gains.length === 2 ? "opponent" : `opponent ${player}`;
    const who = player === screen.seat ? "you" : opponent;
    return `${who} ${Number(gain).toFixed(Number.isInteger(gain) ? 0 : 1)}`;
  });
  return el("p", { class: "gains" }, [`Gains (higher is better): ${parts.join(" · ")}`]);
}

// ---- the generic view: the observation text and the legal actions as buttons -------------

function drawGeneric(screen, choose) {
  const observation = screen.observation || {};
  const text = typeof observation.text === "string" ? observation.text : JSON.stringify(observation);
  const part = el("div", { class: "generic" }, [el("pre", { class: "observation" }, [text])]);
  if (screen.legal && screen.legal.length) {
    const list = el("div", { class: "actions", role: "group", "aria-label": "Your moves" });
    for (const move of screen.legal) {
      const button = el("button", { type: "button", class: "action" }, [move.label]);
      button.addEventListener("click", () => choose(move.action));
      list.append(button);
    }
    part.append(list);
  }
  return { part, hint: null };
}

// ---- Maze ---------------------------------------------------------------------------------

const MAZE_FILL = {
  "?": "#33333b", "#": "#121214", ".": "#e9e1cf", "*": "#33333b", "+": "#e9e1cf",
  D: "#f08c1a", B: "#2f6fe0", R: "#d63a32", d: "#f6ba76", b: "#82a9ec", r: "#e68983",
};

function drawMaze(screen, choose) {
  const o = screen.observation;
  const part = board(o.width, o.height, "The maze");
  part.classList.add("maze");
  part.append(svg("rect", { x: 0, y: 0, width: o.width, height: o.height, fill: "#1e1e24" }));
  const tiles = svg("g", { "shape-rendering": "crispEdges" });  // no seams between tiles
  part.append(tiles);
  o.rows.forEach((row, y) => {
    [...row].forEach((symbol, x) => {
      tiles.append(svg("rect", { x, y, width: 1, height: 1, fill: MAZE_FILL[symbol] || "#33333b" }));
      if (symbol === "*" || symbol === "+")
        part.append(svg("rect", { x: x + 0.18, y: y + 0.18, width: 0.64, height: 0.64,
                                  fill: "#3cd05a", stroke: "#0b5d1e", "stroke-width": 0.06 }));
    });
  });
  part.append(svg("circle", { cx: o.explorer.x + 0.5, cy: o.explorer.y + 0.5, r: 0.42,
                              fill: "#ffd700", stroke: "#806000", "stroke-width": 0.08 }));
  for (const move of described(screen)) {
    const { x, y } = move.does;
    const target = svg("rect", { x: x - 0.05, y: y - 0.05, width: 1.1, height: 1.1,
                                 class: "target", fill: "transparent", stroke: "#ffffff",
                                 "stroke-width": 0.16 });
    // A hit area twice the tile's size: a tile is ~9 px on a phone.
    const hit = svg("rect", { x: x - 0.5, y: y - 0.5, width: 2, height: 2, fill: "transparent" });
    part.append(asButton(svg("g", {}, [hit, target]), move.label, () => choose(move.action)));
  }
  const m = o.marks;
  const hint = `Steps left: ${o.stepsLeft} · marks: ${m.active} to check, ${m.defused} defused, ` +
               `${m.vanished} vanished` +
               (screen.actor === "you" ? " — choose a highlighted door or mark" : "");
  return { part, hint };
}

// ---- Ludo ---------------------------------------------------------------------------------

// The 40 shared squares on the 11 x 11 grid from seat 0's start clockwise (as ddalab-gui).
const LUDO_RING = [
  [0, 4], [1, 4], [2, 4], [3, 4], [4, 4], [4, 3], [4, 2], [4, 1], [4, 0], [5, 0],
  [6, 0], [6, 1], [6, 2], [6, 3], [6, 4], [7, 4], [8, 4], [9, 4], [10, 4], [10, 5],
  [10, 6], [9, 6], [8, 6], [7, 6], [6, 6], [6, 7], [6, 8], [6, 9], [6, 10], [5, 10],
  [4, 10], [4, 9], [4, 8], [4, 7], [4, 6], [3, 6], [2, 6], [1, 6], [0, 6], [0, 5],
];
const LUDO_HOME = [
  [[1, 5], [2, 5], [3, 5], [4, 5]], [[5, 1], [5, 2], [5, 3], [5, 4]],
  [[9, 5], [8, 5], [7, 5], [6, 5]], [[5, 9], [5, 8], [5, 7], [5, 6]],
];
const LUDO_HOUSE = [
  [[0, 0], [1, 0], [0, 1], [1, 1]], [[9, 0], [10, 0], [9, 1], [10, 1]],
  [[9, 9], [10, 9], [9, 10], [10, 10]], [[0, 9], [1, 9], [0, 10], [1, 10]],
];

// `colour` mixed with white: 0 keeps it, 1 is white.
function tint(colour, towardsWhite) {
  const channels = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  const mixed = channels.map((c) => Math.round(c + (255 - c) * towardsWhite));
  return `rgb(${mixed.join(",")})`;
}

function ludoCell(seat, pieces, index) {
  const r = pieces[index];
  if (r < 0) {
    const slot = pieces.slice(0, index).filter((p) => p < 0).length;
    return LUDO_HOUSE[seat][slot];
  }
  if (r < 40) return LUDO_RING[(10 * seat + r) % 40];
  return LUDO_HOME[seat][r - 40];
}

function drawDie(x, y, size, face) {
  const group = svg("g", { class: "die" });
  group.append(svg("rect", { x, y, width: size, height: size, rx: size * 0.15,
                             fill: "#ffffff", stroke: "#000000", "stroke-width": 0.05 }));
  const pips = {
    1: [[0.5, 0.5]], 2: [[0.25, 0.25], [0.75, 0.75]], 3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
    4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
    5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
    6: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.5], [0.75, 0.5], [0.25, 0.75], [0.75, 0.75]],
  }[face];
  if (!pips) {
    group.append(svgText(x + size / 2, y + size * 0.7, "?", { class: "die-unknown" }));
    return group;
  }
  for (const [px, py] of pips)
    group.append(svg("circle", { cx: x + px * size, cy: y + py * size, r: size * 0.09 }));
  return group;
}

function drawLudo(screen, choose) {
  const o = screen.observation;
  const part = board(11, 11, "The Ludo board");
  part.classList.add("ludo");
  part.append(svg("rect", { x: 0, y: 0, width: 11, height: 11, fill: "#f4e7c5" }));
  const safe = new Set(o.safe);
  const playing = new Set(o.seats.map((s) => s.seat));
  const square = ([x, y], fill) =>
    part.append(svg("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.43, fill, stroke: "#554530",
                                "stroke-width": 0.05 }));
  LUDO_RING.forEach((cell, i) => {
    const start = i % 10 === 0;
    square(cell, start ? tint(SEAT_COLOURS[i / 10], 0.6) : safe.has(i) ? "#b8b0a0" : "#ffffff");
  });
  for (let seat = 0; seat < 4; ++seat) {
    const light = tint(SEAT_COLOURS[seat], playing.has(seat) ? 0.55 : 0.8);
    for (const cell of [...LUDO_HOME[seat], ...LUDO_HOUSE[seat]]) square(cell, light);
  }
  const pass = moveWhere(screen, { verb: "pass" });
  for (const { seat, pieces } of o.seats) {
    pieces.forEach((r, index) => {
      const [x, y] = ludoCell(seat, pieces, index);
      const piece = svg("g", {}, [
        svg("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.3, fill: SEAT_COLOURS[seat],
                        stroke: "#222222", "stroke-width": 0.06, class: "piece" }),
        svgText(x + 0.5, y + 0.64, SEAT_LETTERS[seat],
                { class: "piece-mark", "text-anchor": "middle", "font-size": 0.4,
                  fill: seat === 3 ? "#000000" : "#ffffff" }),
      ]);
      const move = seat === o.yourSeat &&
                   moveWhere(screen, r < 0 ? { verb: "enter" } : { verb: "move", from: r });
      if (!move) return part.append(piece);
      const ring = svg("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, rx: 0.2,
                                 fill: "#ffffff", stroke: HIGHLIGHT, "stroke-width": 0.1,
                                 class: "target" });
      part.append(asButton(svg("g", {}, [ring, piece]), move.label, () => choose(move.action)));
    });
  }
  const die = drawDie(5.12, 5.12, 0.76, o.roll);
  if (pass) {
    die.prepend(svg("rect", { x: 5.02, y: 5.02, width: 0.96, height: 0.96, rx: 0.2,
                              fill: "none", stroke: HIGHLIGHT, "stroke-width": 0.1,
                              class: "target" }));
    part.append(asButton(die, "pass (no piece can move)", () => choose(pass.action)));
  } else {
    part.append(die);
  }
  const you = SEAT_COLOURS[o.yourSeat] ? ["red", "blue", "green", "yellow"][o.yourSeat] : "";
  let hint = `You play ${you}.`;
  if (screen.actor === "you")
    hint += pass ? " No piece can move: choose the die to pass."
                 : ` You rolled ${o.roll}: choose a highlighted piece.`;
  return { part, hint };
}

// ---- Lost Cities --------------------------------------------------------------------------

const LC_COLOURS = ["#f2c94c", "#4a8be8", "#e8e8e8", "#3cb36b", "#e05a4f"];
const LC_NAMES = ["yellow", "blue", "white", "green", "red"];

function lcColour(kind) { return Math.floor(kind / 10); }
function lcValueText(kind) { return kind % 10 === 0 ? "W" : String(kind % 10 + 1); }
function lcName(kind) {
  return `${LC_NAMES[lcColour(kind)]} ${kind % 10 === 0 ? "wager" : kind % 10 + 1}`;
}
const DRAW_TARGETS = ".pile.move, .deck.move";
// The legal move playing (or discarding) `kind` and then drawing from pile `pile` (undefined:
// the deck), or undefined.
function lcMove(screen, kind, discard, pile) {
  const verb = discard ? "discard" : "play";
  return moveWhere(screen, pile === undefined ? { verb, card: kind, draw: "deck" }
                                              : { verb, card: kind, draw: "pile", pile });
}

const CARD_W = 80, CARD_H = 112, GAP = 14, COLUMN = CARD_W + GAP, STACK_STEP = 34;

// Expedition `colour`'s shape in the square (x, y, side), as ddalab-gui draws it: yellow a
// circle, blue a square, white a diamond, green a triangle, red a cross (green and red cards look
// alike to many).
function expeditionMark(x, y, side, colour, stroke) {
  const a = { fill: "none", stroke, "stroke-width": side * 0.14 };
  const i = side * 0.15, l = x + i, t = y + i, r = x + side - i, b = y + side - i;
  const cx = x + side / 2, cy = y + side / 2;
  const shapes = [
    () => [svg("circle", { cx, cy, r: (r - l) / 2, ...a })],
    () => [svg("rect", { x: l, y: t, width: r - l, height: b - t, ...a })],
    () => [svg("polygon", { points: `${cx},${t} ${r},${cy} ${cx},${b} ${l},${cy}`, ...a })],
    () => [svg("polygon", { points: `${cx},${t} ${r},${b} ${l},${b}`, ...a })],
    () => [svg("line", { x1: l, y1: t, x2: r, y2: b, ...a }), svg("line", { x1: r, y1: t, x2: l, y2: b, ...a })],
  ];
  return svg("g", { class: "expedition-mark", "data-colour": colour }, shapes[colour]());
}

function card(x, y, kind, extra = {}) {
  return svg("g", { class: "card", "data-kind": kind, ...extra }, [
    svg("rect", { x, y, width: CARD_W, height: CARD_H, rx: 8, fill: LC_COLOURS[lcColour(kind)],
                  stroke: "#303030", "stroke-width": 2 }),
    svgText(x + 7, y + 29, lcValueText(kind), { class: "card-value" }),
    expeditionMark(x + CARD_W - 29, y + CARD_H - 29, 24, lcColour(kind), "#303030"),
  ]);
}

function cardBack(x, y, width = CARD_W, height = CARD_H) {
  return svg("g", { class: "card-back" }, [
    svg("rect", { x, y, width, height, rx: 8, fill: "#5a3e2b", stroke: "#202020",
                  "stroke-width": 2 }),
    svg("rect", { x: x + 6, y: y + 6, width: width - 12, height: height - 12, rx: 5,
                  fill: "none", stroke: "#c8a86a", "stroke-width": 1.5 }),
  ]);
}

function outline(x, y, width, height) {
  return svg("rect", { x: x - 4, y: y - 4, width: width + 8, height: height + 8, rx: 10,
                       fill: "none", stroke: HIGHLIGHT, "stroke-width": 6, class: "target" });
}

function stackHeight(expeditions) {
  const longest = Math.max(1, ...expeditions.map((cards) => cards.length));
  return CARD_H + STACK_STEP * (longest - 1);
}

// One player's five expeditions from (left, top); the slot of `playColour` becomes a move.
function drawExpeditions(group, left, top, expeditions, height, move) {
  expeditions.forEach((cards, colour) => {
    const x = left + colour * COLUMN;
    // (A transparent fill, not none: the empty slot takes clicks.)
    const slot = svg("rect", { x, y: top, width: CARD_W, height, rx: 8, fill: "transparent",
                               stroke: LC_COLOURS[colour], "stroke-dasharray": "6 5",
                               "stroke-width": 2, class: "slot" });
    const column = svg("g", { class: "expedition", "data-colour": colour }, [slot]);
    cards.forEach((kind, i) => column.append(card(x, top + i * STACK_STEP, kind)));
    if (move && move.colour === colour) {
      column.append(outline(x, top, CARD_W, height));
      group.append(asButton(column, move.label, move.activate));
    } else {
      group.append(column);
    }
  });
}

// The Lost Cities board keeps the person's half-made choice (card, then play or discard, then
// where to draw from) between renders of the same screen.
function drawLostCities(screen, choose, memory) {
  const o = screen.observation;
  const moves = described(screen);
  const choice = memory.lostCities || (memory.lostCities = {});
  const has = (test) => moves.some((m) => test(m.does.card, m.does.verb === "discard"));
  if (choice.kind !== undefined && !has((k) => k === choice.kind)) delete choice.kind;
  // Redraws; the keyboard goes on to the first of `next` (the step's targets), if given.
  const redraw = (next) => {
    if (next) memory.focusNext = next;
    memory.redraw();
  };

  const width = 6 * COLUMN + GAP;
  const left = GAP;
  const theirHeight = stackHeight(o.opponent.expeditions);
  const ourHeight = stackHeight(o.you.expeditions);
  const handCount = o.you.hand.length;
  let y = 12;
  const rows = {};
  rows.opponentHand = y; y += 64 + 16;
  rows.theirs = y; y += theirHeight + 20;
  rows.piles = y; y += CARD_H + 40;
  rows.ours = y; y += ourHeight + 20;
  rows.hand = y; y += CARD_H + 22 + 12;
  rows.score = y; y += 34;
  const part = board(width, y, "The Lost Cities table");
  part.classList.add("lost-cities");
  part.append(svg("rect", { x: 0, y: 0, width, height: y, fill: "#2f4f3a" }));

  // The opponent's hand, face down: only how many cards it holds is known.
  const backs = svg("g", { class: "opponent-hand", "data-count": o.opponent.handSize });
  for (let i = 0; i < o.opponent.handSize; ++i) backs.append(cardBack(left + i * 30, rows.opponentHand, 44, 62));
  part.append(backs);
  part.append(svgText(width - GAP, rows.opponentHand + 40, `Opponent: ${o.opponent.score} points`,
                      { class: "lc-label", "text-anchor": "end" }));

  const stage = choice.kind === undefined ? "card" : choice.discard === undefined ? "where" : "draw";
  const colour = choice.kind === undefined ? -1 : lcColour(choice.kind);
  const playMove = stage === "where" && has((k, d) => k === choice.kind && !d)
    ? { colour, label: `play ${lcName(choice.kind)} onto your ${LC_NAMES[colour]} expedition`,
        activate: () => { choice.discard = false; redraw(DRAW_TARGETS); } }
    : null;
  drawExpeditions(part, left, rows.theirs, o.opponent.expeditions, theirHeight, null);
  drawExpeditions(part, left, rows.ours, o.you.expeditions, ourHeight, playMove);

  // The piles (their top card and size) and the deck; the legal move drawing from pile `pile`
  // (none given: the deck) with the chosen card.
  const drawable = (pile) => stage === "draw" && lcMove(screen, choice.kind, choice.discard, pile);
  o.piles.forEach((pile, c) => {
    const x = left + c * COLUMN;
    const group = svg("g", { class: "pile", "data-colour": c, "data-size": pile.size });
    if (pile.top === null)
      group.append(svg("rect", { x, y: rows.piles, width: CARD_W, height: CARD_H, rx: 8,
                                 fill: "#3a5d46", stroke: LC_COLOURS[c], "stroke-width": 3 }),
                   expeditionMark(x + CARD_W - 29, rows.piles + CARD_H - 29, 24, c, LC_COLOURS[c]));
    else
      group.append(card(x, rows.piles, pile.top));
    group.append(svgText(x + CARD_W / 2, rows.piles + CARD_H + 26, `${pile.size}`,
                         { class: "lc-count", "text-anchor": "middle" }));
    const discardHere = stage === "where" && c === colour && has((k, d) => k === choice.kind && d);
    if (discardHere || drawable(c)) {
      group.append(outline(x, rows.piles, CARD_W, CARD_H));
      const label = discardHere ? `discard ${lcName(choice.kind)} onto the ${LC_NAMES[c]} pile`
                                : `take the ${lcName(pile.top)} from the ${LC_NAMES[c]} pile`;
      part.append(asButton(group, label, discardHere
        ? () => { choice.discard = true; redraw(DRAW_TARGETS); }
        : () => choose(drawable(c).action)));
    } else {
      part.append(group);
    }
  });
  const deckX = left + 5 * COLUMN;
  const deck = svg("g", { class: "deck", "data-size": o.deck }, [
    cardBack(deckX, rows.piles),
    svgText(deckX + CARD_W / 2, rows.piles + CARD_H / 2 + 12, o.deck, { class: "deck-count", "text-anchor": "middle" }),
    svgText(deckX + CARD_W / 2, rows.piles + CARD_H + 26, "deck", { class: "lc-count", "text-anchor": "middle" }),
  ]);
  if (drawable()) {
    deck.append(outline(deckX, rows.piles, CARD_W, CARD_H));
    part.append(asButton(deck, `draw from the deck (${o.deck} cards)`,
                         () => choose(drawable().action)));
  } else {
    part.append(deck);
  }

  // The own hand, spread to fit; the chosen card raised.
  const step = Math.min(CARD_W + 6, (width - 2 * GAP - CARD_W) / Math.max(1, handCount - 1));
  const spread = CARD_W + step * (handCount - 1);
  const hand = svg("g", { class: "hand", "data-count": handCount });
  o.you.hand.forEach((kind, i) => {
    const x = (width - spread) / 2 + i * step;
    const chosen = choice.kind === kind && i === o.you.hand.indexOf(kind);
    const top = rows.hand + (chosen ? 0 : 22);
    const face = card(x, top, kind);
    if (!has((k) => k === kind)) return hand.append(face);
    if (chosen) face.append(outline(x, top, CARD_W, CARD_H));
    hand.append(asButton(face, `choose your ${lcName(kind)}`, () => {
      choice.kind = kind;
      delete choice.discard;
      redraw(".expedition.move, .pile.move");
    }));
  });
  part.append(hand);
  part.append(svgText(width - GAP, rows.score + 18, `You: ${o.you.score} points`,
                      { class: "lc-label", "text-anchor": "end" }));

  let hint = null;
  if (screen.actor === "you")
    hint = stage === "card" ? "Choose a card of your hand."
         : stage === "where" ? `Play the ${lcName(choice.kind)} onto its expedition or discard it onto its pile (Esc: another card).`
         : `${choice.discard ? "Discard" : "Play"} the ${lcName(choice.kind)}, then draw: the deck or the top of a highlighted pile (Esc: start again).`;
  const cancel = () => { delete choice.kind; delete choice.discard; redraw(); };
  part.addEventListener("keydown", (event) => { if (event.key === "Escape") cancel(); });
  return { part, hint };
}

// ---- HexaLines ----------------------------------------------------------------------------

const HEX_NAMES = ["Red", "Green", "Blue"];
const HEX_COLOURS = [SEAT_COLOURS[0], SEAT_COLOURS[2], SEAT_COLOURS[1]];  // red, green, blue
const HEX_UNCOLOURED = "#555555", HEX_EMPTY = "#e4dfd2", HEX_ADD = "#fdeacc", HEX_GREY = "#d4d4d4";
const HEX_OUTLINE = "#a89f8a", HEX_PREVIEW = "#7b3fb0", HEX_DEAD = "#a6a6a6";
const SQRT3 = Math.sqrt(3);

function sideDirection(side) {
  const angle = (side * Math.PI) / 3;
  return [Math.cos(angle), -Math.sin(angle)];
}

function hexPoints(cx, cy, size) {
  const points = [];
  for (let k = 0; k < 6; ++k) {
    const angle = ((30 + 60 * k) * Math.PI) / 180;
    points.push(`${(cx + size * Math.cos(angle)).toFixed(2)},${(cy - size * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

// A shape's text ("aa.bb.": a letter per side's segment, '.' a wall) as segment -> sides.
function segmentsOf(shape) {
  const segments = [];
  [...shape].forEach((letter, side) => {
    if (letter === ".") return;
    const s = letter.charCodeAt(0) - 97;
    (segments[s] = segments[s] || []).push(side);
  });
  return segments.filter(Boolean);
}

function segmentPath(cx, cy, apothem, sides, segments) {
  const at = (side, scale) => {
    const [dx, dy] = sideDirection(side);
    return [cx + dx * apothem * scale, cy + dy * apothem * scale];
  };
  const p = (point) => `${point[0].toFixed(2)} ${point[1].toFixed(2)}`;
  if (sides.length === 2)
    return `M${p(at(sides[0], 1))} C${p(at(sides[0], 0.45))} ${p(at(sides[1], 0.45))} ${p(at(sides[1], 1))}`;
  let jx = 0, jy = 0;
  for (const s of sides) { const [dx, dy] = sideDirection(s); jx += dx; jy += dy; }
  jx *= 0.6 / sides.length; jy *= 0.6 / sides.length;
  if (Math.hypot(jx, jy) < 0.05 && segments > 1) [jx, jy] = sideDirection(sides[0]).map((v) => v * 0.25);
  const junction = [cx + jx * apothem, cy + jy * apothem];
  return sides.map((s) => `M${p(at(s, 1))} Q${p(at(s, 0.45))} ${p(junction)}`).join(" ");
}

// The white pattern along player `player`'s strokes (none for red), as ddalab-gui draws it: a
// line's owner shows without its colour (red and green look alike to many).
function lineMark(player, width) {
  const dashes = [null, `${4 * width * 0.35} ${2 * width * 0.35}`, `${width * 0.35} ${2 * width * 0.35}`];
  if (!(player >= 1 && player <= 2)) return null;
  return { class: "line-mark", fill: "none", stroke: "#ffffff", "stroke-width": width * 0.35,
           "stroke-dasharray": dashes[player] };
}

// A cell: the hexagon, each segment a coloured stroke over a casing of the fill.
function hexCell(cx, cy, size, shape, colours, fill, rotation = 0) {
  const group = svg("g", { class: "cell" });
  group.append(svg("polygon", { points: hexPoints(cx, cy, size), fill, stroke: HEX_OUTLINE, "stroke-width": 1 }));
  const lines = svg("g", rotation ? { transform: `rotate(${-60 * rotation} ${cx} ${cy})` } : {});
  const apothem = (size * SQRT3) / 2, width = size * 0.16;
  const segments = segmentsOf(shape);
  segments.forEach((sides, s) => {
    const d = segmentPath(cx, cy, apothem, sides, segments.length);
    const colour = colours[s] >= 0 ? HEX_COLOURS[colours[s]] : HEX_UNCOLOURED;
    lines.append(svg("path", { d, fill: "none", stroke: fill, "stroke-width": width * 2 }));
    lines.append(svg("path", { d, fill: "none", stroke: colour, "stroke-width": width }));
    const mark = lineMark(colours[s], width);
    if (mark) lines.append(svg("path", { d, ...mark }));
  });
  group.append(lines);
  return group;
}

function drawHexaLines(screen, choose, memory) {
  const o = screen.observation;
  const size = 20, R = o.radius;
  const width = (2 * R + 1) * SQRT3 * size + 8;
  const boardHeight = (3 * R + 2) * size;
  const height = 30 + boardHeight + 2.6 * size + 8;
  const centre = [width / 2, 30 + boardHeight / 2];
  const at = (q, r) => [centre[0] + SQRT3 * size * (q + r / 2), centre[1] + 1.5 * size * r];
  const part = board(width, height, "The HexaLines board");
  part.classList.add("hexalines");
  part.append(svg("rect", { x: 0, y: 0, width, height, fill: "#f7f4ec" }));
  const rotations = new Map();  // field -> the sixths its legal rotations turn by
  for (const { does } of described(screen))
    if (does.verb === "rotate")
      rotations.set(does.field, [...(rotations.get(does.field) || []), does.sixths].sort());
  const rotating = memory.hexRotation;
  if (rotating && !rotations.has(rotating.field)) delete memory.hexRotation;

  // The scores (public in HexaLines) and who is on turn.
  HEX_NAMES.forEach((name, p) => {
    const alive = o.alive[p];
    const gain = Array.isArray(screen.gains) ? ` ${screen.gains[p]}` : "";
    const x = width * (p + 0.5) / 3;
    if (screen.actor !== "over" && o.player === p)
      part.append(svg("rect", { x: x - width / 6 + 2, y: 3, width: width / 3 - 4, height: 22, rx: 8,
                                fill: tint(HEX_COLOURS[p], 0.85), stroke: HEX_COLOURS[p], "stroke-width": 1.5 }));
    part.append(svgText(x, 19, `${p === screen.seat ? "You: " : ""}${name}${gain}${alive ? "" : " (out)"}`,
                        { class: "hex-score", "text-anchor": "middle", fill: alive ? HEX_COLOURS[p] : HEX_DEAD }));
  });

  o.cells.forEach((cell, field) => {
    const [cx, cy] = at(cell.q, cell.r);
    const add = moveWhere(screen, { verb: "add", field });
    let drawn;
    if (field === o.centre || cell.shape === undefined) {
      drawn = svg("polygon", { points: hexPoints(cx, cy, size), fill: add ? HEX_ADD : HEX_EMPTY,
                               stroke: HEX_OUTLINE, "stroke-width": 1 });
    } else {
      const fill = cell.owner >= 0 ? tint(HEX_COLOURS[cell.owner], 0.72) : HEX_GREY;
      const turn = rotating && rotating.field === field ? rotating.sixths : 0;
      drawn = hexCell(cx, cy, size, cell.shape, cell.colours, fill, turn);
    }
    const group = svg("g", { class: "field", "data-field": field }, [drawn]);
    if (add) {
      group.append(svg("polygon", { points: hexPoints(cx, cy, size * 0.92), fill: "none",
                                    stroke: HIGHLIGHT, "stroke-width": 3, class: "target" }));
      part.append(asButton(group, add.label, () => choose(add.action)));
    } else if (rotations.has(field)) {
      const active = rotating && rotating.field === field;
      group.append(svg("polygon", { points: hexPoints(cx, cy, size * 0.9), fill: "none",
                                    stroke: HEX_PREVIEW, "stroke-width": active ? 4 : 2.5,
                                    "stroke-dasharray": active ? null : "4 3", class: "target" }));
      const [q, r] = [cell.q, cell.r];
      part.append(asButton(group, active ? "turn the cell one sixth further" : `choose the cell at (${q},${r}) to rotate`, () => {
        const sixths = rotations.get(field);
        if (!active) memory.hexRotation = { field, sixths: sixths[0] };
        if (!active) memory.focusNext = "button.primary";
        else rotating.sixths = sixths[(sixths.indexOf(rotating.sixths) + 1) % sixths.length];
        memory.redraw();
      }));
    } else {
      part.append(group);
    }
  });
  // The sources in the centre.
  const hub = at(o.cells[o.centre].q, o.cells[o.centre].r);
  for (let p = 0; p < 3; ++p) {
    const [dx, dy] = sideDirection(2 * p);
    const apothem = (size * SQRT3) / 2;
    const ends = { x1: hub[0], y1: hub[1], x2: hub[0] + dx * apothem, y2: hub[1] + dy * apothem };
    part.append(svg("line", { ...ends, stroke: o.alive[p] ? HEX_COLOURS[p] : HEX_DEAD, "stroke-width": size * 0.16 }));
    const mark = lineMark(p, size * 0.16);
    if (mark) part.append(svg("line", { ...ends, ...mark }));
  }
  part.append(svg("circle", { cx: hub[0], cy: hub[1], r: size * 0.2, fill: "#3a3a3a" }));

  // The cell to place.
  const pieceY = 30 + boardHeight + 1.3 * size;
  part.append(svgText(width / 2 - 1.4 * size, pieceY + 5, "Cell to place", { class: "hex-label", "text-anchor": "end" }));
  if (o.revealed)
    part.append(hexCell(width / 2, pieceY, size * 1.05, o.revealed, [-1, -1, -1], "#e9e4d8"));
  else
    part.append(svg("polygon", { points: hexPoints(width / 2, pieceY, size * 1.05), fill: "none",
                                 stroke: HEX_OUTLINE, "stroke-dasharray": "4 3" }));

  let hint = null;
  const extra = [];
  if (memory.hexRotation) {
    const { field, sixths } = memory.hexRotation;
    const { action } = moveWhere(screen, { verb: "rotate", field, sixths });
    hint = `Turned ${sixths} sixth${sixths === 1 ? "" : "s"}: choose the cell again to turn it further, then Rotate.`;
    const confirm = el("button", { type: "button", class: "action primary" }, ["Rotate"]);
    confirm.addEventListener("click", () => { delete memory.hexRotation; choose(action); });
    const cancel = el("button", { type: "button", class: "action" }, ["Cancel"]);
    cancel.addEventListener("click", () => { delete memory.hexRotation; memory.redraw(); });
    extra.push(el("div", { class: "actions" }, [confirm, cancel]));
  } else if (screen.actor === "you") {
    hint = `Your turn (${HEX_NAMES[screen.seat] || ""}): add the cell on a highlighted field, or choose your own or a grey cell (dashed purple) to rotate it.`;
  }
  return { part, hint, extra };
}

// ---- the entry point ----------------------------------------------------------------------

const DRAWERS = { maze: drawMaze, ludo: drawLudo, "lost-cities": drawLostCities, hexalines: drawHexaLines };

export function renderScreen(container, screen, onAction) {
  const memory = {};
  let done = false;
  const choose = (action) => {
    if (done) return;
    done = true;  // one action per screen: the next screen comes from the server
    onAction(action, labelOf(screen, action));
  };
  const draw = () => {
    const focused = document.activeElement && document.activeElement.getAttribute("aria-label");
    const known = screen.observation && typeof screen.observation === "object";
    const drawer = (known && DRAWERS[screen.game]) || drawGeneric;
    let drawn;
    try {
      drawn = drawer(screen, choose, memory);
    } catch (error) {  // a screen this page does not understand: the generic view still works
      console.warn("boards.js: generic view for", screen.game, error);
      drawn = drawGeneric(screen, choose);
    }
    const children = [el("h2", { class: "headline" }, [headline(screen)])];
    if (drawn.hint) children.push(el("p", { class: "hint", role: "status" }, [drawn.hint]));
    children.push(el("div", { class: "board-area" }, [drawn.part]));
    children.push(...(drawn.extra || []));
    const gains = screen.game === "hexalines" ? null : gainsLine(screen);
    if (gains) children.push(gains);
    container.replaceChildren(...children);
    if (focused) {  // keep the keyboard where it was across a redraw
      const again = [...container.querySelectorAll("[aria-label]")].find(
        (node) => node.getAttribute("aria-label") === focused);
      const next = (memory.focusNext && container.querySelector(memory.focusNext)) || again;
      if (next) next.focus();
    }
    delete memory.focusNext;
  };
  memory.redraw = draw;
  draw();
}
