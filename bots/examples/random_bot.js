#!/usr/bin/env node
// A random bot in JavaScript (Node.js, standard library only): plays any game.
// Run: referee check-bot manila "node bots/examples/random_bot.js"
//
// Protocol (docs/protocol.md): one JSON object per line on stdin and stdout.
// Answer `start` with `ready`, every `act` with an `action` echoing its `id`
// (here: a random index into `legal`), and stop after `end`. Unknown message
// types are ignored. Debug output goes to stderr (console.error), never stdout.
"use strict";

const readline = require("node:readline");

// process.stdout.write on a pipe is synchronous on Linux, so each reply leaves at once;
// the callback form below also works where pipes are asynchronous.
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "start":
      console.error(`seat ${message.seat} of ${message.seats} in ${message.game}`);
      send({ type: "ready", name: "random-js", version: "1" });
      break;
    case "act": {
      const index = Math.floor(Math.random() * message.legal.length);
      send({ type: "action", id: message.id, index: index });
      break;
    }
    case "end":
      input.close(); // no more input needed; Node exits once stdout has drained
      break;
    default:
      break; // unknown message types are ignored, as the protocol requires
  }
});
