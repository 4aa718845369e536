# Plays paint games on the original engine, the Ruby gem multipaint_engine (makeorbreak-io/mob-ai-engine-ruby),
# and prints how fast its turn loop runs, as one JSON line. bench/paint-gem.bench.ts runs it beside our engine
# (`npm run bench -- paint`); it can be run alone too:
#
#   BOTARENA_MULTIPAINT_GEM=/tmp/multipaint-gem ruby bench/multipaint-gem.rb --width 60 --height 60 --players 4 --turns 400
#   BOTARENA_MULTIPAINT_GEM=/tmp/multipaint-gem ruby bench/multipaint-gem.rb --board shared/maps/paint/10x10.json
#
# BOTARENA_MULTIPAINT_GEM names the gem's folder (its lib/ is put on the load path) or that lib/ itself. The gem
# is not vendored here: this driver only requires it.
#
# A game is made as the original's runner made it (mob-ai, lib/tasks/compete.rb and lib/stepper.rb): the board's
# JSON through GameStateSerializer.load, then `state = state.apply_actions(actions)` once per turn, the actions a
# list of PlayerAction (a player id and a Walk or Shoot with a Position direction) until turns_left is 0.
#
# Every player acts every turn: walk or shoot (half each) in one of the 8 directions, drawn from a 32-bit LCG
# (x = x * 1664525 + 1013904223 mod 2^32; k = (x >> 16) & 15; k < 8 walks, else shoots; direction
# VALID_DIRECTIONS[k & 7]), players in the board's order, turn after turn. bench/paint-gem.bench.ts draws the same
# numbers, so both engines play the same game. All the actions are made before any game is timed; each game reuses
# them (the engine never changes them). `--warmup` games are played untimed first, then `--games` timed ones (more
# until they took `--min-ms`); only the turn loop is timed (Process.clock_gettime, monotonic), not loading,
# parsing or the untimed games.
#
# With --message, each turn also builds the state message the runner sent the players before asking them
# (JSON.generate(GameStateSerializer.dump(state)), lib/players/stdio.rb), once per turn (the runner did it once
# per player).
#
# With --trace, one game is played untimed and the output is {"ruby", "turns", "trace"}: the SHA-256 (hex) of the
# message of every state, before each turn and after the last, so that another engine's states can be compared.
#
# Output: {"ruby", "turns" (per game), "games", "ms" (each timed game's loop), "total_ms", "turns_per_s",
# "us_per_turn", "scores" (squares per player id after the last game), "final" (that game's last state as the
# runner dumped it, without previous_actions)}.
require "json"
require "optparse"
# The gem's PlayerAction is a SimpleDelegator and does not require "delegate" itself (the runner's other
# libraries had loaded it).
require "delegate"

gem_dir = ENV["BOTARENA_MULTIPAINT_GEM"]
abort "set BOTARENA_MULTIPAINT_GEM to the multipaint_engine gem's folder (or its lib/)" if gem_dir.nil? || gem_dir.empty?
lib = File.exist?(File.join(gem_dir, "lib", "multipaint_engine.rb")) ? File.join(gem_dir, "lib") : gem_dir
abort "no multipaint_engine.rb in #{lib}" unless File.exist?(File.join(lib, "multipaint_engine.rb"))
$LOAD_PATH.unshift(File.expand_path(lib))

require "multipaint_engine"
require "multipaint_engine/action"
require "multipaint_engine/player_action"
require "multipaint_engine/position"
require "multipaint_engine/game_state"
require "multipaint_engine/game_state_serializer"

options = { width: 10, height: 10, players: 2, turns: nil, seed: 1, games: 5, min_ms: 0, warmup: 1, board: nil, message: false, trace: false }
OptionParser.new do |o|
  o.banner = "usage: ruby bench/multipaint-gem.rb [--board FILE | --width W --height H --players N --turns T] [--seed S] [--games G] [--min-ms MS] [--warmup N] [--message | --trace]"
  o.on("--board FILE", "a board in the wire form (the state JSON: width, height, player_positions, colors, previous_actions, turns_left)") { |v| options[:board] = v }
  o.on("--width N", Integer) { |v| options[:width] = v }
  o.on("--height N", Integer) { |v| options[:height] = v }
  o.on("--players N", Integer) { |v| options[:players] = v }
  o.on("--turns N", Integer, "turns of a generated board (default width × height)") { |v| options[:turns] = v }
  o.on("--seed N", Integer, "the LCG's first value") { |v| options[:seed] = v }
  o.on("--games N", Integer, "timed games, at least (default 5)") { |v| options[:games] = v }
  o.on("--min-ms N", Float, "more timed games until their loops took this long in all (default 0)") { |v| options[:min_ms] = v }
  o.on("--warmup N", Integer, "untimed games first (default 1)") { |v| options[:warmup] = v }
  o.on("--message", "also build each turn's state message") { options[:message] = true }
  o.on("--trace", "play one game untimed and print the SHA-256 of every state's message instead") { options[:trace] = true }
end.parse!

IDS = %w[alice bob charlie danielle erin frank grace heidi].freeze

# A generated board (when no --board is given): the players on squares spread evenly in row-major order, each
# start square painted its player's colour, nothing else painted, no turn played.
def generated_board(width, height, players, turns)
  ids = Array.new(players) { |k| IDS[k] || "player#{k + 1}" }
  size = width * height
  abort "#{players} players do not fit on #{width}×#{height}" if players > size
  squares = ids.each_index.map { |k| (k * size + size / 2) / players }
  colors = Array.new(height) { Array.new(width) }
  positions = {}
  ids.zip(squares).each do |id, sq|
    positions[id] = [sq / width, sq % width]
    colors[sq / width][sq % width] = id
  end
  {
    "width" => width, "height" => height, "player_positions" => positions, "colors" => colors,
    "previous_actions" => [], "turns_left" => turns || size,
  }
end

payload = options[:board] ? JSON.parse(File.read(options[:board])) : generated_board(options[:width], options[:height], options[:players], options[:turns])
abort "this driver plays boards with no previous_actions" unless payload.fetch("previous_actions").empty?
initial = MultipaintEngine::GameStateSerializer.load(payload)
ids = initial.player_positions.keys
turns = initial.turns_left

# The actions, drawn before any timing.
x = options[:seed] & 0xffffffff
actions = Array.new(turns) do
  ids.map do |id|
    x = (x * 1664525 + 1013904223) & 0xffffffff
    k = (x >> 16) & 15
    direction = MultipaintEngine::Position.new(*MultipaintEngine::VALID_DIRECTIONS[k & 7])
    MultipaintEngine::PlayerAction.new(id, k < 8 ? MultipaintEngine::Walk.new(direction) : MultipaintEngine::Shoot.new(direction))
  end
end

# --trace: the state message before every turn and after the last, each as its SHA-256 (hex), untimed.
if options[:trace]
  require "digest"
  state = initial
  trace = []
  actions.each do |turn|
    trace << Digest::SHA256.hexdigest(JSON.generate(MultipaintEngine::GameStateSerializer.dump(state)))
    state = state.apply_actions(turn)
  end
  trace << Digest::SHA256.hexdigest(JSON.generate(MultipaintEngine::GameStateSerializer.dump(state)))
  puts JSON.generate(ruby: RUBY_DESCRIPTION, turns: turns, trace: trace)
  exit
end

message = options[:message]
play = lambda do
  state = initial
  actions.each do |turn|
    JSON.generate(MultipaintEngine::GameStateSerializer.dump(state)) if message
    state = state.apply_actions(turn)
  end
  abort "the game did not end after its #{turns} turns" unless state.finished?
  state
end

options[:warmup].times { play.call }
times = []
last = nil
while times.size < options[:games] || times.sum < options[:min_ms]
  t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  last = play.call
  times << (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0) * 1000
end
total = times.sum
final = MultipaintEngine::GameStateSerializer.dump(last)
final.delete(:previous_actions)
puts JSON.generate(
  ruby: RUBY_DESCRIPTION,
  turns: turns,
  games: times.size,
  ms: times.map { |t| t.round(3) },
  total_ms: total.round(3),
  turns_per_s: (turns * times.size / (total / 1000)).round,
  us_per_turn: (total * 1000 / (turns * times.size)).round(3),
  scores: ids.to_h { |id| [id, last.score[id] || 0] },
  final: final,
)
