/*
 * Ox88 `engine serve` page: the board, the game controls, the clocks and the analysis view.
 *
 * The server owns the game. Every action (move, undo, hint, resign, draw, new game) is one
 * JSON request whose answer is the whole game state (see serve-api.md); the page renders that
 * state and keeps nothing of its own except what is on screen: the picked piece, a drag in
 * progress, the board orientation, the clocks' local countdown between polls, the hint and the
 * analysis stream. The only chess the page knows is how to read a FEN's board and how to show
 * a move at once (castling rook, en passant, promotion) before the server's answer arrives;
 * legal moves, SAN, check and the end of the game all come from the server.
 *
 * Moving uses pointer events, not the HTML5 drag-and-drop API: pointerdown on a piece picks it
 * (dots on its targets), moving the pointer drags it, pointerup over a target square plays the
 * move; a pointerdown on a target square of the picked piece plays at once (click-to-move).
 * Mouse, touch, pen and WebDriver's synthetic pointer actions all go through the same path.
 *
 * No third-party code, fonts or images: pieces are Unicode chess glyphs styled in style.css.
 */
'use strict';

const $ = (id) => document.getElementById(id);

const FILES = 'abcdefgh';
const KIND_NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
/* The clocks are polled this often (ms) in remote games and while a clock runs. */
const POLL_MS = 1000;
/* A pointer that moves further than this (px) after pointerdown is a drag, not a click. */
const DRAG_THRESHOLD = 4;

const app = {
  levels: [],
  game: null,           // game id and seat of the game on screen (also in the URL)
  seat: null,
  state: null,          // the last state the server sent
  view: null,           // what the board shows: {pieces, lastMove, check} (state or a move in flight)
  legalFrom: new Map(), // from-square -> the legal moves of the piece on it
  selected: null,       // the square of the picked piece
  drag: null,           // {from, el, x0, y0, moved, wasSelected} while the pointer is down on a piece
  focus: 'e2',          // the square the keyboard is on
  flipped: false,       // turned around from the player's own side
  busy: 0,              // requests in flight that change the game
  busyLabel: null,      // what the status line says while they run
  seq: 0,               // request counter: an answer older than the one shown is dropped
  shownSeq: 0,
  polling: false,
  pollTimer: null,
  clock: null,          // {white_ms, black_ms, increment_ms, running, at}: at = performance.now()
  hint: null,           // {move, san, fen}
  pendingPromotion: null, // {from, to} while the promotion choice is open
  source: null,         // the analysis EventSource
  control: null,        // {fen, squares: Map(square -> control entry)} for the control map
  resignArmed: null,    // timer of the resign button's "press again to confirm"
  squares: {},          // square name -> {el, piece, rank, file, ctlW, ctlB}
};

/* ---------- the server ---------- */

/* One API request. Resolves with the parsed JSON; rejects with an Error whose message is the
 * server's "error" sentence (or a sentence of our own when there is none). */
async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new Error(`The server cannot be reached (${err.message}).`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    const sentence = data && typeof data.error === 'string' ? data.error
      : `The server answered ${response.status} ${response.statusText}.`;
    throw new Error(sentence);
  }
  if (data === null) throw new Error(`The server's answer to ${path} is not JSON.`);
  return data;
}

function query(params) {
  return Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

function seatParams() {
  return { game: app.game, seat: app.seat };
}

/* Runs a game-changing request: counts it as busy (no polls meanwhile, buttons off), shows its
 * error if it fails, and applies the state it returns (when it returns one). `label` is what
 * the status line says meanwhile (Ox88 may search for seconds). Resolves with the answer, or
 * null when the request failed. */
async function act(work, label = null) {
  app.busy++;
  app.busyLabel = label;
  const seq = ++app.seq;
  renderControls();
  renderStatus();
  try {
    const result = await work();
    hideError();
    if (result && result.fen) applyState(result, seq);
    return result;
  } catch (err) {
    showError(err.message);
    // A move shown ahead of the answer goes back to the position the server last sent.
    if (app.state) showState();
    return null;
  } finally {
    app.busy--;
    if (!app.busy) app.busyLabel = null;
    renderControls();
    renderStatus();
  }
}

function showError(text) {
  $('error-text').textContent = text;
  $('error').hidden = false;
}

function hideError() {
  $('error').hidden = true;
  $('error-text').textContent = '';
}

/* ---------- FEN and squares ---------- */

/* The board of a FEN: Map square -> piece code such as "wK" or "bp"... codes are colour + the
 * upper-case kind letter, as data-piece carries them. */
function fenPieces(fen) {
  const pieces = new Map();
  const rows = (fen || '').split(' ')[0].split('/');
  rows.forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '8') {
        file += Number(ch);
      } else {
        const color = ch === ch.toUpperCase() ? 'w' : 'b';
        if (file < 8) pieces.set(FILES[file] + rank, color + ch.toUpperCase());
        file++;
      }
    }
  });
  return pieces;
}

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

function squareName(file, rank) {
  return FILES[file] + (rank + 1);
}

function squareOf(element) {
  const el = element && element.closest ? element.closest('[data-square]') : null;
  return el && $('board').contains(el) ? el.dataset.square : null;
}

function pieceName(code) {
  return `${code[0] === 'w' ? 'white' : 'black'} ${KIND_NAMES[code[1]]}`;
}

/* Which colour is at the bottom: the player's own, turned around by Flip. */
function bottomColor() {
  const own = app.state && app.state.you === 'black' ? 'black' : 'white';
  if (!app.flipped) return own;
  return own === 'white' ? 'black' : 'white';
}

/* The board as it will be after `move` (UCI), for showing a move before the server answers. */
function piecesAfter(pieces, move) {
  const next = new Map(pieces);
  const from = move.slice(0, 2);
  const to = move.slice(2, 4);
  const code = next.get(from);
  if (!code) return next;
  next.delete(from);
  // En passant: a pawn moving diagonally onto an empty square takes the pawn beside it.
  if (code[1] === 'P' && from[0] !== to[0] && !next.has(to)) next.delete(to[0] + from[1]);
  // Castling: the king moves two files and its rook jumps over it.
  const df = FILES.indexOf(to[0]) - FILES.indexOf(from[0]);
  if (code[1] === 'K' && Math.abs(df) === 2) {
    const rookFrom = (df > 0 ? 'h' : 'a') + from[1];
    const rookTo = (df > 0 ? 'f' : 'd') + from[1];
    const rook = next.get(rookFrom);
    if (rook) {
      next.delete(rookFrom);
      next.set(rookTo, rook);
    }
  }
  next.set(to, move.length > 4 ? code[0] + move[4].toUpperCase() : code);
  return next;
}

/* ---------- the board ---------- */

function buildBoard() {
  const board = $('board');
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const name = squareName(file, rank);
      const el = document.createElement('div');
      el.className = `sq ${(file + rank) % 2 ? 'light' : 'dark'}`;
      el.dataset.square = name;
      el.setAttribute('role', 'button');
      el.tabIndex = -1;
      const rankLabel = document.createElement('span');
      rankLabel.className = 'coord coord-rank';
      rankLabel.setAttribute('aria-hidden', 'true');
      const fileLabel = document.createElement('span');
      fileLabel.className = 'coord coord-file';
      fileLabel.setAttribute('aria-hidden', 'true');
      const ctlW = document.createElement('span');
      ctlW.className = 'ctl ctl-w';
      const ctlB = document.createElement('span');
      ctlB.className = 'ctl ctl-b';
      el.append(rankLabel, fileLabel, ctlW, ctlB);
      board.append(el);
      app.squares[name] = { el, piece: null, rank: rankLabel, file: fileLabel, ctlW, ctlB };
    }
  }
  board.addEventListener('pointerdown', onPointerDown);
  window.addEventListener('pointermove', onPointerMove);
  window.addEventListener('pointerup', onPointerUp);
  window.addEventListener('pointercancel', cancelDrag);
  board.addEventListener('keydown', onBoardKey);
  // A long press on touch screens would open the context menu over the board.
  board.addEventListener('contextmenu', (e) => e.preventDefault());
  board.addEventListener('dragstart', (e) => e.preventDefault());
}

/* Draws app.view: pieces (an element is kept when its square's piece did not change, so a
 * drag survives a redraw), highlights, legal-move dots, coordinates and the control map. */
function renderBoard() {
  const view = app.view || { pieces: fenPieces(START_FEN), lastMove: null, check: null };
  const whiteBottom = bottomColor() === 'white';
  const targets = new Map();
  if (app.selected && !app.busy) {
    for (const m of app.legalFrom.get(app.selected) || []) targets.set(m.to, m);
  }
  const hint = app.hint && app.state && app.hint.fen === app.state.fen ? app.hint.move : null;
  const board = $('board');
  board.dataset.orientation = bottomColor();

  for (let rank = 0; rank < 8; rank++) {
    for (let file = 0; file < 8; file++) {
      const name = squareName(file, rank);
      const sq = app.squares[name];
      const code = view.pieces.get(name) || null;
      sq.el.style.gridColumn = String(whiteBottom ? file + 1 : 8 - file);
      sq.el.style.gridRow = String(whiteBottom ? 8 - rank : rank + 1);
      sq.rank.textContent = file === (whiteBottom ? 0 : 7) ? String(rank + 1) : '';
      sq.file.textContent = rank === (whiteBottom ? 0 : 7) ? FILES[file] : '';

      const current = sq.piece ? sq.piece.dataset.piece : null;
      if (current !== code) {
        if (sq.piece) sq.piece.remove();
        sq.piece = null;
        if (code) {
          const piece = document.createElement('div');
          piece.className = 'piece';
          piece.dataset.piece = code;
          piece.setAttribute('aria-hidden', 'true');
          sq.el.append(piece);
          sq.piece = piece;
        }
      }

      const cls = sq.el.classList;
      const last = view.lastMove && (view.lastMove.from === name || view.lastMove.to === name);
      cls.toggle('last', Boolean(last));
      cls.toggle('check', view.check === name);
      cls.toggle('selected', app.selected === name);
      cls.toggle('target', targets.has(name));
      cls.toggle('capture', targets.has(name) && Boolean(code));
      cls.toggle('hint', Boolean(hint) && (hint.slice(0, 2) === name || hint.slice(2, 4) === name));
      cls.toggle('movable', app.legalFrom.has(name) && !app.busy);
      sq.el.tabIndex = name === app.focus ? 0 : -1;

      let label = name + (code ? `, ${pieceName(code)}` : ', empty');
      if (targets.has(name)) label += ', a legal move';
      if (app.selected === name) label += ', picked';
      renderControlSquare(sq, name);
      if (sq.el.title) label += `; ${sq.el.title}`;
      sq.el.setAttribute('aria-label', label);
    }
  }
  const s = app.state;
  board.dataset.ply = s ? String(s.ply) : '';
  board.dataset.fen = s ? s.fen : '';
  board.dataset.turn = s ? s.turn : '';
  board.dataset.busy = app.busy ? 'true' : 'false';
}

/* The control map on one square: attacker counts and a tint for the side with more. */
function renderControlSquare(sq, name) {
  const on = $('control-map').checked && app.control && app.state && app.state.mode === 'analysis'
    && app.control.fen === app.state.fen;
  const entry = on ? app.control.squares.get(name) : null;
  const w = entry ? entry.white : 0;
  const b = entry ? entry.black : 0;
  sq.ctlW.textContent = w ? String(w) : '';
  sq.ctlB.textContent = b ? String(b) : '';
  sq.el.classList.toggle('ctl-white', w > b);
  sq.el.classList.toggle('ctl-black', b > w);
  if (entry && (w || b)) {
    const part = (n, lowest, color) => (n ? `${n} ${color}${lowest ? ` (cheapest ${lowest})` : ''}` : '');
    sq.el.title = ['attacked by', [part(w, entry.lowest_white, 'white'),
      part(b, entry.lowest_black, 'black')].filter(Boolean).join(' and ')].join(' ');
  } else {
    sq.el.removeAttribute('title');
  }
}

/* ---------- picking and moving ---------- */

function canPick(square) {
  return Boolean(app.state) && !app.busy && app.legalFrom.has(square);
}

function isTarget(from, to) {
  return (app.legalFrom.get(from) || []).some((m) => m.to === to);
}

function select(square) {
  app.selected = square;
  renderBoard();
}

function deselect() {
  if (app.selected === null) return;
  app.selected = null;
  renderBoard();
}

/* A click or a key on a square: play to it from the picked piece, or pick/unpick a piece. */
function activateSquare(square) {
  if (app.selected && isTarget(app.selected, square)) {
    tryMove(app.selected, square);
  } else if (canPick(square)) {
    if (app.selected === square) deselect(); else select(square);
  } else {
    deselect();
  }
}

function onPointerDown(e) {
  if (e.button !== 0 || app.pendingPromotion) return;
  const square = squareOf(e.target);
  if (!square) return;
  e.preventDefault(); // no text selection, no native image drag, no focus ring flash
  app.focus = square;
  if (app.selected && isTarget(app.selected, square)) {
    tryMove(app.selected, square);
    return;
  }
  if (!canPick(square)) {
    deselect();
    return;
  }
  const wasSelected = app.selected === square;
  select(square);
  const el = app.squares[square].piece;
  if (!el) return;
  app.drag = { from: square, el, x0: e.clientX, y0: e.clientY, moved: false, wasSelected, over: null };
}

function onPointerMove(e) {
  const d = app.drag;
  if (!d) return;
  const dx = e.clientX - d.x0;
  const dy = e.clientY - d.y0;
  if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
  if (!d.moved) {
    d.moved = true;
    d.el.classList.add('dragging');
  }
  e.preventDefault();
  d.el.style.transform = `translate(${dx}px, ${dy}px)`;
  const over = squareAtPoint(e.clientX, e.clientY);
  if (over !== d.over) {
    if (d.over) app.squares[d.over].el.classList.remove('over');
    if (over && isTarget(d.from, over)) app.squares[over].el.classList.add('over');
    d.over = over;
  }
}

function onPointerUp(e) {
  const d = app.drag;
  if (!d) return;
  endDrag();
  if (d.moved) {
    const to = squareAtPoint(e.clientX, e.clientY);
    if (to && to !== d.from && isTarget(d.from, to)) tryMove(d.from, to);
  } else if (d.wasSelected) {
    deselect(); // a second click on the picked piece puts it down
  }
}

/* The square under a viewport point (the dragged piece ignores the pointer, see style.css). */
function squareAtPoint(x, y) {
  return squareOf(document.elementFromPoint(x, y));
}

function endDrag() {
  const d = app.drag;
  if (!d) return;
  app.drag = null;
  d.el.classList.remove('dragging');
  d.el.style.transform = '';
  if (d.over) app.squares[d.over].el.classList.remove('over');
}

function cancelDrag() {
  endDrag();
}

/* Arrow keys walk the board as it is shown; Enter or Space acts like a click. */
function onBoardKey(e) {
  const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  const square = squareOf(e.target) || app.focus;
  if (steps[e.key]) {
    e.preventDefault();
    const sign = bottomColor() === 'white' ? 1 : -1;
    const file = Math.min(7, Math.max(0, FILES.indexOf(square[0]) + sign * steps[e.key][0]));
    const rank = Math.min(7, Math.max(0, Number(square[1]) - 1 + sign * steps[e.key][1]));
    app.focus = squareName(file, rank);
    renderBoard();
    app.squares[app.focus].el.focus();
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    app.focus = square;
    activateSquare(square);
  } else if (e.key === 'Escape') {
    deselect();
  }
}

/* A move from the board: ask for the promotion piece when there is a choice, else play it. */
function tryMove(from, to) {
  const moves = (app.legalFrom.get(from) || []).filter((m) => m.to === to);
  if (!moves.length) return;
  if (moves.some((m) => m.promotion)) {
    openPromotion(from, to);
  } else {
    playMove(moves[0].uci);
  }
}

function openPromotion(from, to) {
  app.pendingPromotion = { from, to };
  const color = app.state.turn === 'white' ? 'w' : 'b';
  for (const button of document.querySelectorAll('#promotion [data-promotion]')) {
    const kind = button.dataset.promotion.toUpperCase();
    button.innerHTML = '';
    const piece = document.createElement('span');
    piece.className = 'piece';
    piece.dataset.piece = color + kind;
    piece.setAttribute('aria-hidden', 'true');
    button.append(piece);
  }
  $('promotion').hidden = false;
  document.querySelector('#promotion [data-promotion="q"]').focus();
}

function closePromotion() {
  app.pendingPromotion = null;
  $('promotion').hidden = true;
}

function choosePromotion(letter) {
  const p = app.pendingPromotion;
  closePromotion();
  if (!p) return;
  const move = (app.legalFrom.get(p.from) || []).find((m) => m.to === p.to && m.promotion === letter);
  if (move) playMove(move.uci);
}

/* Plays a UCI move: shown on the board at once, then the server's state (with Ox88's reply in
 * engine mode) replaces it. */
function playMove(uci) {
  const s = app.state;
  app.selected = null;
  app.view = {
    pieces: piecesAfter(app.view.pieces, uci),
    lastMove: { from: uci.slice(0, 2), to: uci.slice(2, 4) },
    check: null,
  };
  // The mover's clock stops (plus increment) and the other side's starts, until the server says.
  const before = app.clock && { ...app.clock };
  if (app.clock && app.clock.running === s.turn) {
    const now = performance.now();
    const key = `${s.turn}_ms`;
    app.clock[key] = Math.max(0, app.clock[key] - (now - app.clock.at)) + app.clock.increment_ms;
    app.clock.running = s.turn === 'white' ? 'black' : 'white';
    app.clock.at = now;
  }
  const label = s.mode === 'engine' ? 'Ox88 is thinking…' : null;
  act(() => api('POST', '/api/move', { ...seatParams(), move: uci }), label).then((answer) => {
    if (!answer && before) app.clock = before; // refused: the clocks as they were
  });
  renderBoard();
}

/* ---------- the state ---------- */

/* Takes a state from the server. `seq` orders the requests: an answer to a request older than
 * the one already shown (a poll overtaken by a move) is dropped. */
function applyState(s, seq) {
  if (seq < app.shownSeq) return;
  app.shownSeq = seq;
  const old = app.state;
  const newGame = !old || old.game !== s.game;
  const moved = newGame || old.fen !== s.fen || old.ply !== s.ply;
  app.state = s;
  app.game = s.game;
  app.seat = s.seat || app.seat;

  app.legalFrom = new Map();
  for (const m of s.legal || []) {
    if (!app.legalFrom.has(m.from)) app.legalFrom.set(m.from, []);
    app.legalFrom.get(m.from).push(m);
  }
  if (moved) {
    endDrag();
    closePromotion();
    app.hint = null;
  }
  if (newGame) {
    app.flipped = false; // a new game starts from the player's own side
    $('flip').setAttribute('aria-pressed', 'false');
  }
  if (app.selected && !app.legalFrom.has(app.selected)) app.selected = null;

  app.clock = s.clock ? { ...s.clock, at: performance.now() } : null;
  showState();
  renderMoves();
  renderControls();
  renderStatus();
  renderClocks();
  renderHint();
  renderSide();
  if (moved) positionChanged();
  schedulePoll();
}

/* The board back to what the server last said. */
function showState() {
  const s = app.state;
  app.view = { pieces: fenPieces(s.fen), lastMove: s.last_move, check: s.check };
  renderBoard();
}

function renderStatus() {
  const s = app.state;
  const status = $('status');
  if (!s) {
    status.textContent = app.busyLabel || 'Choose a mode and press New game.';
    return;
  }
  let text;
  const side = s.turn === 'white' ? 'White' : 'Black';
  if (s.end) {
    text = s.end;
  } else if (app.busy && app.busyLabel) {
    text = app.busyLabel;
  } else if (s.mode === 'engine') {
    if (s.turn !== s.you) text = 'Ox88 is thinking…';
    else text = s.check ? 'Check! Your move.' : 'Your move.';
  } else if (s.mode === 'remote') {
    if (!s.opponent_joined) text = 'Waiting for your opponent to open the invite link.';
    else if (s.turn === s.you) text = s.check ? 'Check! Your move.' : 'Your move.';
    else text = `Your opponent (${side}) is to move.`;
  } else {
    text = `${side} to move${s.check ? ', in check' : ''}.`;
  }
  if (!s.end && s.draw_offer) {
    if (s.mode === 'remote' && s.draw_offer !== s.you) text += ' Your opponent offers a draw.';
    else if (s.mode === 'remote') text += ' You offered a draw.';
  }
  status.textContent = text;
  status.classList.toggle('over', Boolean(s.end));
}

/* The move list in SAN, numbered from the start position's move number. */
function renderMoves() {
  const s = app.state;
  const list = $('moves');
  list.innerHTML = '';
  if (!s) return;
  const fields = (s.start_fen || START_FEN).split(' ');
  let number = Number(fields[5]) || 1;
  let whiteToMove = fields[1] !== 'b';
  let item = null;
  s.moves.forEach((m, i) => {
    if (whiteToMove || !item) {
      item = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = whiteToMove ? `${number}.` : `${number}…`;
      item.append(num);
      list.append(item);
    }
    const san = document.createElement('span');
    san.className = 'san';
    if (i === s.moves.length - 1) san.classList.add('current');
    san.dataset.uci = m.uci;
    san.textContent = m.san;
    item.append(' ', san);
    if (!whiteToMove) number++;
    whiteToMove = !whiteToMove;
  });
  list.scrollTop = list.scrollHeight;
  $('pgn').value = s.pgn || '';
  $('current-fen').textContent = s.fen;
  const link = $('download-pgn');
  link.href = `/api/pgn?${query(seatParams())}`;
  link.removeAttribute('aria-disabled');
}

/* How many of the moves were made by this seat (engine mode undoes only from the player's own
 * move on; in local and analysis games every move is the player's). */
function ownMoves(s) {
  if (s.you === 'both') return s.moves.length;
  const firstWhite = (s.start_fen || START_FEN).split(' ')[1] !== 'b';
  return s.moves.filter((_, i) => ((i % 2 === 0) === firstWhite ? 'white' : 'black') === s.you).length;
}

/* Which buttons work now. */
function renderControls() {
  const s = app.state;
  const live = Boolean(s) && s.result === '*' && !app.busy;
  $('undo').disabled = !s || app.busy > 0 || s.mode === 'remote' || !ownMoves(s);
  $('hint').disabled = !live || s.legal.length === 0;
  $('resign').disabled = !live;
  $('draw').disabled = !live;
  const offered = s && s.mode === 'remote' && s.draw_offer && s.draw_offer !== s.you;
  $('draw').textContent = offered ? 'Accept draw' : 'Offer draw';
  $('new-game').disabled = app.busy > 0;
  $('setup').disabled = app.busy > 0;
  if (!s) {
    $('download-pgn').setAttribute('aria-disabled', 'true');
  }
  if (app.view) $('board').dataset.busy = app.busy ? 'true' : 'false';
  for (const sq of Object.values(app.squares)) {
    sq.el.classList.toggle('movable', app.legalFrom.has(sq.el.dataset.square) && !app.busy);
  }
}

/* The invite link, the server's message and which panels show for this mode. */
function renderSide() {
  const s = app.state;
  const invite = s && s.mode === 'remote' && s.invite;
  $('invite-box').hidden = !invite;
  if (invite) {
    $('invite').value = location.origin + s.invite;
    $('opponent').textContent = s.opponent_joined ? 'Your opponent has joined.'
      : 'Waiting for your opponent…';
  }
  const message = $('message');
  message.hidden = !(s && s.message);
  message.textContent = (s && s.message) || '';
  $('analysis').hidden = !(s && s.mode === 'analysis');
}

function renderHint() {
  const el = $('hint-text');
  const h = app.hint && app.state && app.hint.fen === app.state.fen ? app.hint : null;
  el.textContent = h ? `Hint: ${h.san}` : '';
  el.dataset.uci = h ? h.move : '';
  el.dataset.ply = h ? String(app.state.ply) : '';
}

/* ---------- clocks ---------- */

function formatClock(ms) {
  const clamped = Math.max(0, ms);
  const total = Math.floor(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  if (h) return `${h}:${two(m)}:${two(sec)}`;
  if (clamped < 10000) return `${m}:${two(sec)}.${Math.floor((clamped % 1000) / 100)}`;
  return `${m}:${two(sec)}`;
}

/* The clocks count down here between the server's states; the server decides flag falls. */
function renderClocks() {
  const c = app.clock;
  const top = $('clock-top');
  const bottom = $('clock-bottom');
  top.hidden = !c;
  bottom.hidden = !c;
  if (!c) return;
  const over = app.state && app.state.result !== '*';
  const now = performance.now();
  const left = (color) => c[`${color}_ms`] - (c.running === color && !over ? now - c.at : 0);
  const low = bottomColor();
  const high = low === 'white' ? 'black' : 'white';
  for (const [el, color] of [[top, high], [bottom, low]]) {
    const ms = left(color);
    el.textContent = `${color === 'white' ? 'White' : 'Black'} ${formatClock(ms)}`;
    el.classList.toggle('running', c.running === color && !over);
    el.classList.toggle('low', ms < 20000);
    el.dataset.color = color;
  }
}

/* ---------- polling ---------- */

/* Remote games poll once a second so the other player's moves appear; so does any game whose
 * clock runs (a flag can fall on the server's side), and a game against Ox88 while Ox88 is to
 * move (a busy server makes its reply at the next poll). */
function schedulePoll() {
  const s = app.state;
  const oxToMove = s && s.mode === 'engine' && s.you !== s.turn;
  const wanted = s && s.result === '*'
    && (s.mode === 'remote' || (s.clock && s.clock.running) || oxToMove);
  if (wanted && !app.pollTimer) {
    app.pollTimer = setInterval(poll, POLL_MS);
  } else if (!wanted && app.pollTimer) {
    clearInterval(app.pollTimer);
    app.pollTimer = null;
  }
}

async function poll() {
  if (app.polling || app.busy || !app.game) return;
  app.polling = true;
  const seq = ++app.seq;
  try {
    const s = await api('GET', `/api/state?${query(seatParams())}`);
    // A move sent meanwhile makes this answer old news; the move's own answer follows.
    if (!app.busy) applyState(s, seq);
  } catch (err) {
    showError(err.message);
  } finally {
    app.polling = false;
  }
}

/* ---------- analysis ---------- */

function positionChanged() {
  startAnalysis();
  if ($('control-map').checked) loadControl();
}

function stopAnalysis() {
  if (app.source) {
    app.source.close();
    app.source = null;
  }
}

/* One EventSource per position: the server streams deepening lines, then `done`. The old one
 * is closed first, and closed on `done` too (an EventSource would otherwise reconnect and
 * start the search over). */
function startAnalysis() {
  stopAnalysis();
  const s = app.state;
  $('lines').innerHTML = '';
  setWdl(null);
  if (!s || s.mode !== 'analysis') return;
  if (s.result !== '*') {
    $('analysis-info').textContent = s.end || 'The game is over.';
    return;
  }
  $('analysis-info').textContent = 'Analysing…';
  const fen = s.fen;
  const source = new EventSource(`/api/analysis?${query({ ...seatParams(), multipv: 3 })}`);
  app.source = source;
  let got = null;
  source.onmessage = (e) => {
    let data;
    try {
      data = JSON.parse(e.data);
    } catch (_) {
      return;
    }
    if (source !== app.source || data.fen !== fen) return;
    got = data;
    renderLines(data);
  };
  source.addEventListener('done', () => {
    if (source !== app.source) return;
    source.close();
    app.source = null;
    $('analysis-info').textContent = got
      ? `Finished: depth ${got.depth}, ${got.nodes.toLocaleString()} nodes.`
      : 'The search ended without a line.';
  });
  source.onerror = () => {
    if (source !== app.source) return;
    source.close();
    app.source = null;
    if (!got) showError('The analysis stream could not be opened (the server may be busy with other searches).');
    else $('analysis-info').textContent = `Stopped at depth ${got.depth}.`;
  };
}

/* A score from the side to move's view (as UCI gives it) shown from White's. */
function formatScore(score, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (score && typeof score.mate === 'number') {
    const m = score.mate * sign;
    return m > 0 ? `#${m}` : `#-${-m}`;
  }
  const cp = ((score && score.cp) || 0) * sign;
  return `${cp > 0 ? '+' : cp < 0 ? '−' : ''}${(Math.abs(cp) / 100).toFixed(2)}`;
}

/* SAN moves with move numbers, starting from `fen`. */
function numberedLine(sans, fen) {
  const fields = fen.split(' ');
  let number = Number(fields[5]) || 1;
  let white = fields[1] !== 'b';
  const parts = [];
  sans.forEach((san, i) => {
    if (white) parts.push(`${number}. ${san}`);
    else parts.push(i === 0 ? `${number}… ${san}` : san);
    if (!white) number++;
    white = !white;
  });
  return parts.join(' ');
}

function renderLines(data) {
  const turn = data.fen.split(' ')[1] === 'b' ? 'black' : 'white';
  const list = $('lines');
  list.innerHTML = '';
  for (const line of data.lines || []) {
    const li = document.createElement('li');
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = formatScore(line.score, turn);
    const pv = document.createElement('span');
    pv.className = 'pv';
    pv.textContent = numberedLine(line.pv_san || line.pv || [], data.fen);
    li.append(score, ' ', pv);
    list.append(li);
  }
  $('analysis-info').textContent =
    `Depth ${data.depth}, ${Number(data.nodes).toLocaleString()} nodes (scores from White's side).`;
  const best = (data.lines || [])[0];
  setWdl(best && best.wdl ? best.wdl : null, turn);
}

/* The WDL bar, White's share on the left; wdl is permille for the side to move. */
function setWdl(wdl, turn) {
  const bar = $('wdl');
  const [w, d, l] = wdl ? (turn === 'black' ? [wdl[2], wdl[1], wdl[0]] : wdl) : [0, 1000, 0];
  const total = w + d + l || 1;
  bar.querySelector('.wdl-white').style.width = `${(100 * w) / total}%`;
  bar.querySelector('.wdl-draw').style.width = `${(100 * d) / total}%`;
  bar.querySelector('.wdl-black').style.width = `${(100 * l) / total}%`;
  const pct = (n) => `${Math.round((100 * n) / total)}%`;
  const words = wdl ? `White wins ${pct(w)}, draw ${pct(d)}, Black wins ${pct(l)}` : '';
  bar.setAttribute('aria-label', words || 'No evaluation yet');
  bar.title = words;
  $('wdl-text').textContent = words;
}

/* The control map of the shown position, from /api/analyze. */
async function loadControl() {
  const s = app.state;
  if (!s || s.mode !== 'analysis') return;
  const fen = s.fen;
  if (app.control && app.control.fen === fen) {
    renderBoard();
    return;
  }
  try {
    const doc = await api('GET', `/api/analyze?${query({ fen })}`);
    const squares = new Map();
    for (const entry of doc.control || []) squares.set(entry.square, entry);
    app.control = { fen, squares };
  } catch (err) {
    showError(err.message);
    return;
  }
  if (app.state && app.state.fen === fen) renderBoard();
}

/* ---------- the buttons ---------- */

function newGameBody(fen) {
  const mode = $('mode').value;
  const body = { mode, color: $('color').value };
  if (mode === 'engine') body.level = $('level').value;
  const time = $('time').value.trim();
  if (time) body.time = time;
  if (fen) body.fen = fen;
  return body;
}

async function newGame(fen) {
  stopAnalysis();
  const body = newGameBody(fen);
  const label = body.mode === 'engine' ? 'Starting the game against Ox88…' : 'Starting the game…';
  const s = await act(() => api('POST', '/api/game', body), label);
  if (s && s.game) {
    history.replaceState(null, '', `/?${query({ game: s.game, seat: s.seat })}`);
  }
}

function setup() {
  const fen = $('fen').value.trim();
  if (!fen) {
    showError('Type or paste a FEN into the box first.');
    $('fen').focus();
    return;
  }
  newGame(fen);
}

function hint() {
  const fen = app.state.fen;
  act(async () => {
    const h = await api('POST', '/api/hint', seatParams());
    if (app.state && app.state.fen === fen) {
      app.hint = { move: h.move, san: h.san, fen };
      renderHint();
      renderBoard();
    }
    return null;
  }, 'Ox88 looks for a hint…');
}

/* Resigning takes two presses within four seconds, so a slip does not end the game. */
function resign() {
  const button = $('resign');
  if (!app.resignArmed) {
    button.textContent = 'Press again to resign';
    button.classList.add('armed');
    app.resignArmed = setTimeout(disarmResign, 4000);
    return;
  }
  disarmResign();
  act(() => api('POST', '/api/resign', seatParams()));
}

function disarmResign() {
  clearTimeout(app.resignArmed);
  app.resignArmed = null;
  $('resign').textContent = 'Resign';
  $('resign').classList.remove('armed');
}

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (_) {
    // Clipboard API refused (no permission, not a secure origin): select and copy instead.
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) {
      showError('The browser did not allow copying; select the text and copy it yourself.');
      return;
    }
  }
  const label = button.textContent;
  button.textContent = 'Copied';
  setTimeout(() => { button.textContent = label; }, 1500);
}

/* Level and colour only mean something in some modes. */
function renderModeFields() {
  const mode = $('mode').value;
  $('level-field').hidden = mode !== 'engine';
  $('color-field').hidden = mode !== 'engine' && mode !== 'remote';
}

/* ---------- start ---------- */

async function loadLevels() {
  try {
    app.levels = await api('GET', '/api/levels');
  } catch (err) {
    showError(err.message);
    return;
  }
  const select = $('level');
  select.innerHTML = '';
  for (const level of app.levels) {
    const option = document.createElement('option');
    option.value = level.name;
    option.textContent = `${level.name} (Elo ${level.elo})`;
    select.append(option);
  }
  const preferred = app.levels.find((l) => l.name === 'normal') || app.levels[0];
  if (preferred) select.value = preferred.name;
}

/* A game in the URL (a reload, or an invite link) is resumed; its mode and level go into the
 * form so that New game starts another of the same kind. */
async function resume() {
  const params = new URLSearchParams(location.search);
  const game = params.get('game');
  const seat = params.get('seat');
  if (!game || !seat) return;
  app.game = game;
  app.seat = seat;
  const s = await act(() => api('GET', `/api/state?${query({ game, seat })}`));
  if (!s) {
    app.game = null; // the error says why; New game starts afresh
    app.seat = null;
    return;
  }
  $('mode').value = s.mode;
  if (s.level && [...$('level').options].some((o) => o.value === s.level.name)) {
    $('level').value = s.level.name;
  }
  if (s.you === 'white' || s.you === 'black') $('color').value = s.you;
  renderModeFields();
}

function wire() {
  $('new-game-form').addEventListener('submit', (e) => {
    e.preventDefault();
    newGame(null);
  });
  $('setup').addEventListener('click', setup);
  $('fen').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault(); // Enter in the FEN box sets up that position, not a plain new game
      setup();
    }
  });
  $('mode').addEventListener('change', renderModeFields);
  $('undo').addEventListener('click', () => act(() => api('POST', '/api/undo', seatParams())));
  $('hint').addEventListener('click', hint);
  $('resign').addEventListener('click', resign);
  $('draw').addEventListener('click', () => act(() => api('POST', '/api/draw', seatParams())));
  $('flip').addEventListener('click', () => {
    app.flipped = !app.flipped;
    $('flip').setAttribute('aria-pressed', String(app.flipped));
    renderBoard();
    renderClocks();
  });
  $('error-close').addEventListener('click', hideError);
  $('copy-invite').addEventListener('click', () => copyText($('invite').value, $('copy-invite')));
  $('copy-fen').addEventListener('click', () => copyText($('current-fen').textContent, $('copy-fen')));
  $('control-map').addEventListener('change', () => {
    if ($('control-map').checked) loadControl(); else renderBoard();
  });
  for (const button of document.querySelectorAll('#promotion [data-promotion]')) {
    button.addEventListener('click', () => choosePromotion(button.dataset.promotion));
  }
  $('promotion-cancel').addEventListener('click', () => {
    closePromotion();
    deselect();
  });
  $('promotion').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      closePromotion();
      deselect();
    }
  });
  $('download-pgn').addEventListener('click', (e) => {
    if (!app.state) {
      e.preventDefault();
      showError('There is no game to download yet.');
    }
  });
  // Clocks tick on the page; the server's states correct them.
  setInterval(renderClocks, 100);
}

async function main() {
  buildBoard();
  wire();
  renderModeFields();
  renderBoard();
  renderControls();
  renderStatus();
  await loadLevels();
  await resume();
  renderStatus();
}

main();
