// Scores hands with the independent npm package hk-mahjong for tests/test_hongkong_differential.py.
// stdin: JSON list of {concealed: ["1m", ...], melds: [["1m", "1m", "1m"], ...], config: {...}}
// stdout: JSON list of {value: number | "limit" | null, details: [...]}, the best reading of each hand
// (hk-mahjong's own Hand.calculateFaan takes the first reading; we want the best, like a player).
"use strict";
const { Tile, Meld, Hand } = require("hk-mahjong");

const SUITS = { m: "character", p: "dot", s: "bamboo" };
// mpsz honours 1z-7z are East South West North White Green Red; hk-mahjong numbers them
// in Unicode order: East South West North Red Green White
const HONORS = [1, 2, 3, 4, 7, 6, 5];

function tile(code) {
  const n = Number(code[0]);
  const suit = code[1];
  if (suit === "z") return new Tile({ suit: "honor", value: HONORS[n - 1] });
  return new Tile({ suit: SUITS[suit], value: n });
}

function best(item) {
  const hand = new Hand({
    tiles: item.concealed.map(tile),
    melds: item.melds.map((m) => new Meld(m.map(tile))),
  });
  let top = null;
  for (const reading of hand.findAllWinningPermutations()) {
    const r = require("hk-mahjong").FaanCalculator.calculate(reading, item.config);
    const value = r.value === "∞" ? "limit" : r.value;
    const rank = value === "limit" ? Infinity : value;
    if (top === null || rank > top.rank) top = { rank, value, details: r.details };
  }
  return top === null ? { value: null, details: [] } : { value: top.value, details: top.details };
}

let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = JSON.parse(input).map((item) => {
    try {
      return best(item);
    } catch (err) {
      return { value: null, error: String(err && err.message) };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
