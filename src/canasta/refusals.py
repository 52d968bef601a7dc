"""Every reason the game gives for refusing something, by a stable code.

A refusal (``canasta.errors.CanastaError`` and its subclasses) carries a code from
:data:`REFUSALS` and its parameters; the English text of the API and of the scenarios is the
code's template here, filled in the notation (cards as ``KD``, ranks as ``kings``, numbers as
digits).  Players read it in their language from the message catalogues instead
(``canasta.i18n``, ``src/canasta/locale/*.po``, whose ``msgctxt`` is the code and whose
``msgid`` is this template).  A template's placeholders name their parameters, and the name
says what the parameter holds (:data:`KINDS`), so that each language writes it its own way.

This module is data only (no I/O): the engine raises refusals without reading a catalogue.
"""

from __future__ import annotations

from typing import Final

#: What a placeholder holds, by its name; any other name holds an int (a seat, a count, points).
KINDS: Final[dict[str, str]] = {
    "card": "card", "top": "card",
    "cards": "cards",
    "rank": "rank",  # also as rank_the, rank_all, rank_one (RANK_FORMS)
    "kinds": "canasta kinds",  # names of canasta kinds: natural, mixed, sevens, wild
    "reason": "refusal",  # a refusal nested in this one
    "text": "quoted", "verb": "quoted", "game": "quoted", "name": "quoted",  # as it was given
    "names": "quoted", "known": "quoted", "value": "quoted",
    "problem": "quoted",  # what the server could not do, in the words of what failed
    "variant": "variant",  # a variant's name (classic), written as the variant's title
    "counts": "numbers",  # whole numbers to choose from: 2, 3 or 4
    "path": "quoted", "got": "quoted", "want": "quoted",
    "where": "place",  # where in a position or record: a place.* refusal, or a field's name
}

REFUSALS: Final[dict[str, str]] = {
    # --- the turn (canasta.engine.check) -------------------------------------------------------
    "turn.hand_over": "the hand is over",
    "turn.not_yours": "it is seat {actor}'s turn to act, not seat {seat}'s",
    "turn.answer_first": "your partner asked \"may I go out?\": answer yes or no",
    "turn.nobody_asked": "nobody has asked you whether they may go out",
    "turn.stock_exhausted": "the stock is exhausted: take the pile or pass",
    "turn.draw_first": "begin your turn: draw from the stock or take the pile",
    "turn.already_drawn": "you have already drawn this turn: meld, or discard to end your turn",
    # --- holding cards, melding (canasta.engine.melding, canasta.engine.play) -------------------
    "hand.not_held": "you do not hold {cards}",
    "hand.not_enough": "the move uses {uses} of {card} and you hold only {held}",
    "meld.black_threes_last": "black threes are your last meld: discard to go out",
    "meld.empty": "meld at least one card",
    "meld.no_meld_to_add": "your side has no meld of {rank} to add to",
    "meld.black_threes_out_range": "black threes may be melded only as you go out, "
                                   "{low} or {high} of them",
    "meld.black_threes_out_min": "black threes may be melded only as you go out, "
                                 "{low} or more of them",
    "meld.black_threes_only_out": "black threes may be melded only as you go out",
    "meld.out_then_discard": "you could not go out after this meld: {reason}",
    "meld.red_threes": "red threes are never melded: they are laid beside your melds",
    "meld.threes": "threes are never melded: they are laid beside your melds",
    "meld.black_threes_no_wilds": "black threes are melded only with each other, "
                                  "never with wild cards",
    "meld.black_threes_alone": "black threes are melded only with each other, when going out",
    "meld.wilds_alone": "a meld needs natural cards: wild cards alone are not a meld",
    "meld.one_rank": "a meld is made of one rank: {card} does not go with {rank_the}",
    "meld.one_per_rank": "one meld per rank: put {rank_all} in one group",
    "meld.keep_one": "you go out by discarding your last card: keep one card to discard",
    "meld.min_cards": "a meld needs at least 3 cards",
    "meld.min_naturals": "a meld needs at least 2 natural cards",
    "meld.max_wilds": "a meld may hold at most {most} wild cards",
    "meld.wilds_not_more": "a meld may not hold more wild cards than natural cards",
    "meld.wilds_fewer": "a meld needs more natural cards than wild cards",
    "meld.initial_points": "your side's initial meld needs {need} points; these cards count "
                           "{total}",
    # --- going out (canasta.engine.melding, canasta.engine.goingout, the variants) --------------
    "out.partner_said_no": "your partner said no: you may not go out this turn, so keep two "
                           "cards",
    "out.partner_said_yes_meld": "your partner said yes, so you must go out this turn: meld "
                                 "first",
    "out.partner_said_yes_stay": "your partner said yes, so you must go out this turn; after "
                                 "this meld you could not",
    "out.one_canasta": "going out needs a canasta: until your side has a canasta, keep two "
                       "cards (one to discard and one to keep)",
    "out.canastas": "going out needs {need} canastas: until your side has {need} canastas, keep "
                    "two cards (one to discard and one to keep)",
    "out.canasta_kinds": "going out needs a {kinds} canasta more: until then keep two cards "
                         "(one to discard and one to keep)",
    # --- asking the partner (canasta.engine.goingout) -------------------------------------------
    "ask.no_partner": "there is no partner to ask in this game",
    "ask.already_this_hand": "you have already asked your partner this hand",
    "ask.already_this_turn": "you have already asked your partner this turn",
    "ask.after_melding": "ask your partner right after drawing, before you meld",
    "ask.one_card": "with one card left you can only go out: there is nothing to ask",
    "ask.cannot_go_out": "you cannot go out this turn, so there is nothing to ask",
    # --- the pile (canasta.engine.takes, the variants) ------------------------------------------
    "pile.empty": "the pile is empty",
    "pile.black_three_on_top": "a black three on top of the pile blocks it this turn",
    "pile.wild_on_top": "a wild card on top of the pile blocks it this turn",
    "pile.cannot_take": "the pile cannot be taken",
    "pile.one_card": "with a single card in hand you may not take a one-card pile",
    "pile.show_rank": "to take the pile, show {rank} or wild cards to meld with the {top} on "
                      "top; {card} does not go with them",
    "pile.take_then_meld": "once your side has melded, take the pile first and then meld",
    "pile.pass_with_stock": "you may pass only when the stock is exhausted: draw a card",
    "pile.must_take": "the stock is exhausted and the {top} on top goes onto your {rank}: you "
                      "must take the pile",
    "pile.frozen": "the pile is frozen: you need two natural {rank} from your hand",
    "pile.frozen_until_initial": "the pile is frozen until your side has made its initial meld: "
                                 "you need two natural {rank} from your hand",
    "pile.need_pair_or_meld": "to take the pile you need two natural {rank}, or {rank_one} and a "
                              "wild card, or a meld of {rank} on the table",
    "pile.natural_pair": "the pile is taken only with a natural pair: you need two natural "
                         "{rank}",
    "pile.meld_too_big": "your {rank} already hold {size} cards: the pair and the top card may "
                         "join a meld of 3 or 4 cards only",
    # --- discarding (the variants) --------------------------------------------------------------
    "discard.red_three": "red threes are never discarded",
    "discard.three": "threes are never discarded",
    "discard.wild": "a wild card may be discarded only when going out, or from a hand of wild "
                    "cards only",
    "discard.empty_pile_ace_seven": "on an empty pile an ace or a seven may be discarded only "
                                    "when you hold no other natural card",
    "discard.empty_pile_closed": "on an empty pile a card of a closed rank may be discarded only "
                                 "when no other card may go",
    # --- Modern American's melds (canasta.variants.modern_american) -----------------------------
    "meld.wild_canasta_finished": "the wild-card canasta is finished: nothing more may be added",
    "meld.canasta_finished": "{rank_the} are a finished canasta: nothing more may be added",
    "meld.max_seven": "a meld stops at 7 cards",
    "meld.wild_meld_only_wilds": "a wild-card meld holds only deuces and jokers",
    "meld.rank_closed": "{rank_the} are closed: a side has a natural canasta of them, so nobody "
                        "may meld them any more",
    "meld.sevens_no_wilds": "sevens never take wild cards",
    "meld.aces_wilds_initial": "aces take wild cards only in the initial meld",
    "meld.wilds_five_naturals": "after your side's first meld, wild cards only go to a meld of "
                                "five or more naturals",
    "meld.wilds_to_wild_meld": "while your wild-card meld is unfinished, wild cards go only to it",
    "meld.initial_clean": "the initial meld must include a meld of three or more natural cards "
                          "without wild cards, or a meld of wild cards",
    "meld.initial_wild_and_mixed": "an initial meld may not hold both an unfinished wild-card "
                                   "meld and a meld with wild cards",
    "meld.initial_points_hand": "your side's initial meld needs {need} points from your hand; "
                                "these cards count {total}",
    # --- Ponytail's melds (canasta.variants.ponytail) -------------------------------------------
    "meld.canasta_full": "a meld stops at 7 cards: a canasta takes nothing more",
    "meld.four_books_sevens": "with the four-books rule, sevens take no wild cards",
    # --- the browser game's own refusals (canasta.web.session, canasta.web.app) -----------------
    "table.no_seat": "there is no seat {seat} at a table of {players}",
    "web.computer_seat": "seat {seat} is a computer player's",
    "web.move_text": "a move is a short text, such as 'draw' or 'discard 4S'",
    "web.nothing_to_undo": "there is nothing to undo: only your melds of this turn, before you "
                           "discard",
    "web.no_computer_to_act": "no computer player is to act",
    "web.hand_not_over": "the hand is still being played",
    "web.match_over": "the match is over: start a new game",
    "web.host_deals": "only the host may deal the next hand before everybody has asked for it",
    "web.no_hint": "it is not your turn: there is nothing to suggest",
    "web.paused": "the game could not be saved ({reason}): it is paused, and goes on by itself "
                  "once the server can save again",
    "web.lang_not_saved": "the game could not be saved ({reason}): the language is unchanged",
    "web.not_created": "the game could not be created: the server cannot save games now "
                       "({reason})",
    "web.computers_stopped": "the computer players stopped because of an error on the server: "
                             "reload the page to go on",
    "web.unreadable": "this saved game cannot be read: {reason}",
    "web.no_game": "there is no game {game}",
    "web.hands_range": "the game has hands 1 to {count}",
    # (canasta.web.groups: the selected cards of several ranks laid as one meld per rank)
    "web.meld_by_rank": "laid as one meld per rank: {reason}",
    "web.meld_wilds_ambiguous": "the wild cards ({cards}) could go with more than one rank: "
                                "choose each meld's cards and press Stage group, then Meld",
    "web.repaired": "this game has been repaired: an earlier version of the server counted a "
                    "finished hand twice when it reloaded the game between two hands; its "
                    "scores were worked out again from its moves",
    "web.repaired_ended": "this game has been repaired: an earlier version of the server "
                          "counted a finished hand twice when it reloaded the game between two "
                          "hands; worked out again from its moves, its scores end the match "
                          "after hand {hand}, so what was played after it is left out of the "
                          "game (the server keeps it)",
    # --- whose games are whose (canasta.web.devices) ---------------------------------------------
    "device.no_key": "the request carries no key of this device: a device's games are shown "
                     "to it alone",
    "device.bad_key": "this device's key is not one the client makes (30 to 64 letters, "
                      "digits, '-' or '_')",
    # --- the game server's store (canasta.web.store): a saved game that cannot be read, and the
    # database's own words for why it cannot write (SQLite's fixed messages) ---------------------
    "store.not_text": "the stored game is not text",
    "store.too_long": "the stored game is longer than {most} characters",
    "store.too_deep": "the stored game is nested more than {most} levels deep",
    "store.not_json": "the stored game is not valid JSON",
    "store.not_object": "the stored game is not a JSON object",
    "store.db_cannot_read": "the database cannot read it ({problem})",
    "store.db_cannot_read_table": "the database cannot read its table ({problem})",
    "store.disk_full": "database or disk is full",
    "store.disk_io": "disk I/O error",
    "store.locked": "database is locked",
    "store.read_only": "attempt to write a readonly database",
    "store.malformed": "database disk image is malformed",
    # --- the new-game form and saved games' options (canasta.web.session) -----------------------
    "config.not_object": "the game options must be a JSON object",
    "config.unknown_options": "unknown option(s): {names}",
    "config.unknown_variant": "unknown variant {text} (known: {known})",
    "config.players": "{variant} is played by {counts} players, not {value}",
    "config.target": "the target score is one of {counts}, not {value}",
    "config.levels": "'levels' must list one level per computer seat ({seats}), each one of "
                     "{known}",
    "config.name": "the player's name must be 1 to {most} printable characters",
    "config.lang": "the language is one of {known}, not {value}",
    "config.options_object": "'options' must be a JSON object of house rules",
    "config.no_house_rule": "{variant} with {players} players has no house rule {name} (its "
                            "house rules: {known})",
    "config.house_rule_value": "the house rule {name} is one of {known}, not {value}",
    "config.no_seed": "the stored game has no seed",
    "config.record_mismatch": "the saved game's options do not match its record",
    # --- the protocol: what a client sent wrong (canasta.web.app, canasta.web.guard) ------------
    "protocol.message_field_twice": "the message gives the field {name} twice",
    "protocol.request_field_twice": "the request gives the field {name} twice",
    "protocol.message_not_json": "the message is not valid JSON",
    "protocol.request_not_json": "the request is not valid JSON",
    "protocol.bad_id": "'id' must be a whole number from 0 to {most} or 1 to {length} letters, "
                       "digits, '-', '_', '.' or ':'",
    "protocol.message_too_long": "the message is too long",
    "protocol.request_too_long": "the request is too long",
    "protocol.not_object": "a message is a JSON object with a 'type'",
    "protocol.unknown_type": "unknown message type {text} (known: {known})",
    "protocol.unknown_fields": "unknown field(s) in {text}: {names}",
    "protocol.needs_field": "{text} needs the field {name}",
    "protocol.field_type": "{name} must be a {text}",
    "protocol.lang": "the language is one of {known}",
    "protocol.no_hint_now": "no hint can be given now",
    "protocol.binary": "send JSON text, not binary data",
    "protocol.invalid_field": "the request's {name} is not valid",
    "protocol.request_needs": "the request needs {name}",
    "protocol.whole_number": "the request's {name} must be a whole number, not {value}",
    "protocol.limit": "the list's 'limit' is 1 to {most}, not {value}",
    "protocol.bad_cursor": "the 'before' cursor is not one the games list gave",
    "protocol.foreign_origin": "requests from other sites are refused (this one comes from "
                               "{text})",
    "protocol.json_content": "send the request as JSON (Content-Type: application/json)",
    # --- why a button of the browser game is disabled (canasta.web.reasons) ---------------------
    "reason.no_new_meld": "none of your cards make a new meld now",
    "reason.no_initial_meld": "none of your cards make an initial meld now (your side needs "
                              "{need} points)",
    "reason.no_melds_yet": "your side has no melds to add to yet",
    "reason.nothing_to_add": "none of your cards go onto your side's melds now",
    # --- positions, scenarios and records (canasta.position, canasta.cards, canasta.engine.deal)
    "position.not_object": "a position must be a JSON object",
    "position.missing": "the position has no '{name}'",
    "position.whole_number": "{where} must be a whole number, not {value}",
    "position.flags": "{where} must be a list of {count} true/false values",
    "position.options_object": "'options' must be an object",
    "position.variant_name": '\'variant\' must be a name such as "classic"',
    "position.scores": "'scores' must hold one number per side ({sides})",
    "position.turn": "'turn' must be a seat from 0 to {last}",
    "position.phase": '\'phase\' must be "draw" or "play"',
    "position.hands": "'hands' must hold one hand per seat ({seats})",
    "position.laid_three": "seat {seat} holds {card}, which is laid down at once",
    "position.melds": "'melds' must hold one list of melds per side ({sides})",
    "position.side_melds": "melds of side {side} must be a list of melds",
    "position.meld_small": "side {side} has a meld of fewer than 3 cards",
    "position.meld_ranks": "side {side} has a meld that is not one rank: {cards}",
    "position.two_melds": "side {side} has two melds of {rank}",
    "position.threes": "'threes' must hold one list per side ({sides})",
    "position.not_a_three": "side {side} has {card} among its threes",
    "position.drew": '\'drew\' must be "stock" or "pile"',
    "position.hand_number": "'hand_number' counts hands from 1",
    "position.copies": "{card} appears {count} times, but {decks} decks hold {allowed}",
    "position.not_cards": "{where} must be a list of cards",
    "position.not_a_card": "{where}: {value} is not a card",
    "position.bad_card": "{where}: {reason}",
    "position.deal_cards": "a deal needs exactly the {count} cards of {decks} decks",
    "position.deal_scores": "scores needs one number per side ({sides})",
    "position.no_ponytails": "{variant} has no ponytails",
    "position.ponytails": "'ponytails' must hold one ponytail (or null) per seat ({seats})",
    "place.deal": "deal {hand}",
    # --- rules and options (canasta.rules, canasta.options, canasta.variants) ------------
    "rules.players": "{variant} is played by {counts} players, not {value}",
    "rules.target": "the target score must be a positive whole number, not {value}",
    "rules.not_object": "rules must be a JSON object",
    "rules.options_object": "'options' must be a JSON object",
    "rules.option_chance": "option '{name}' must be a number from 0 to 1, not {value}",
    "rules.option_choice": "option '{name}' must be one of {known}, not {value}",
    "rules.unknown_variant": "unknown variant '{name}' (known: {known})",
    "rules.unknown_option": "unknown option '{name}' for {variant} (known: {known})",
    # --- game records (canasta.records): a saved game that does not replay ---------------
    "record.cannot_read": "cannot read {path}: {problem}",
    "record.not_text": "{path} is not a text file",
    "record.not_json": "{path} is not valid JSON: {problem}",
    "record.not_object": "{path} is not a game record (a JSON object)",
    "record.format": 'not a game record (its \'format\' must be "{text}")',
    "record.version": "unknown record version {value}",
    "record.deals": "'deals' must be a list of decks, one per hand",
    "record.seed": "the record needs a whole-number 'seed' (or 'deals')",
    "record.hands": "the record needs a list of 'hands'",
    "record.hand_not_ended": "hand {previous} had not ended when hand {hand} began",
    "record.match_over": "the match was over before hand {hand}",
    "record.no_deal": "the record has no deal for hand {hand}",
    "record.moves": "hand {hand} needs a list of 'moves'",
    "record.in_hand": "hand {hand}, {reason}",
    "record.move_shape": "move {move}: write each move as [seat, text]",
    "record.move_over": "move {move}: the hand was already over",
    "record.move_refused": "move {move} ({text}): {reason}",
    "record.result": "hand {hand}: 'result' must be an object",
    "record.replays_otherwise": "hand {hand} does not replay: it scores {got}, the record says "
                                "{want}",
    "record.hands_range": "the game has hands 1 to {count}",
    # --- the notation (canasta.cards, canasta.moves) --------------------------------------------
    "notation.card": "'{text}' is not a card: write a rank (A K Q J T/10 9 8 7 6 5 4 3 2) and a "
                     "suit (C D H S), or JK for a joker",
    "notation.move_text": "a move must be text",
    "notation.empty": "empty move: try 'help' for the moves you can make",
    "notation.nothing_after": "'{verb}' takes nothing after it",
    "notation.discard_one": "discard one card, for example: discard 4S",
    "notation.add_rank_cards": "add a rank and cards, for example: add 7 7C 2D",
    "notation.meld_rank": "'{text}' is not a meld rank (A K Q J T 9 8 7 6 5 4, or W)",
    "notation.meld_cards": "meld some cards, for example: meld KH KD KC / 9S 9D 2C",
    "notation.empty_group": "an empty meld group: put cards between the '/' signs",
    "notation.card_es": "'{text}' is not a card in the Spanish letters: write a rank (A R D J 10 9 "
                        "8 7 6 5 4 3 2) and a suit (P C D T), or JK for a joker",
    "notation.meld_rank_es": "'{text}' is not a meld rank in the Spanish letters (A R D J 10 9 8 7 "
                             "6 5 4, or W)",
    "notation.unknown_move": "unknown move '{verb}': the moves are draw, take, meld, add, "
                             "discard, pass, ask, yes, no",
    # --- tables with friends (canasta.web.tables, canasta.web.lobby, canasta.web.tablegame) ---
    "config.table_not_object": "the table's options must be a JSON object",
    "config.table_levels": "a table gives 'seats' (a friend or a level per seat), not 'levels'",
    "config.table_clock": "the turn clock is null (off) or one of {counts} seconds, not {value}",
    "config.table_seats": "'seats' must list one seat per player but the host (seats 1, 2, ...), "
                          "each a friend's (\"friend\": true) or a computer player's (\"level\": "
                          "LEVEL)",
    "config.table_seat_count": "'seats' must list {count} seats (seats 1 to {count}; the host is "
                               "seat 0)",
    "config.table_no_friend": "a table has at least one friend's seat (a game with only computer "
                              "players is started with POST /api/games)",
    "config.seat_fields": "seat {seat}: unknown field(s) {names}",
    "config.seat_friend": "seat {seat}: 'friend' is true or false",
    "config.seat_level": "seat {seat}: the level is one of {known}",
    "config.table_unreadable": "the game's table cannot be read ({problem})",
    "protocol.quick_not_table": "quick messages are for the people of a table",
    "protocol.deal_not_table": "dealing without waiting is for the host of a table with friends",
    "protocol.quick_unknown": "the quick messages are {known}",
    "protocol.spectator": "a spectator watches: only 'sync' and 'ping' are taken",
    "protocol.table_messages": "the messages of a table are 'ping', 'sync' and 'say' (with the "
                               "field 'say')",
    "protocol.table_join": "join with the field 'name' (and 'seat' through the table's link)",
    "protocol.table_fill": "filling the empty seats takes an empty object",
    "protocol.table_hand_over": "a seat is handed over with 'computer': true and given back with "
                                "'computer': false",
    "protocol.table_new_links": "new links take an empty object",
    "protocol.table_start": "starting takes an empty object",
    "web.table_replay": "this game is played at a table: its replay is each seat's own, through "
                        "the table's link",
    "table.no_key": "the link's key is missing: open the table's link again",
    "table.wrong_key": "this link's key is not one of this table's: ask the host for the link",
    "table.no_table": "there is no table {game}",
    "table.game_gone": "the table's game is gone",
    "table.unreadable": "this saved table cannot be read",
    "table.started": "the game has started already",
    "table.bad_seat": "'seat' is a seat number",
    "table.other_seat": "this link is seat {seat}'s, not seat {asked}'s",
    "table.seat_taken": "seat {seat} is taken",
    "table.choose_seat": "choose a seat: the table link needs 'seat'",
    "table.no_such_seat": "the table has seats 0 to {last}, not {value}",
    "table.not_friend_seat": "seat {seat} is not a friend's seat",
    "table.host_seated": "the host sits at seat 0 already",
    "table.watch_only": "a spectator's link cannot sit down",
    "table.host_only": "only the host may start the game, fill the empty seats, hand a seat to "
                       "a computer player or make new links",
    "table.bad_field": "'computer' is true or false",
    "table.present": "{name} is at the table: only an absent player's seat can be handed to a "
                     "computer player",
    "table.nobody": "nobody has sat at seat {seat} yet: there is nobody to give it back to",
    "table.seat_empty": "seat {seat} has nobody yet: wait for the friend, or fill the empty seats "
                        "with computer players",
    "table.bad_name": "the name must be 1 to {most} printable characters",
    "table.name_taken": "{name} is already at this table: choose another name",
    "table.bad_request": "the request is not valid: {reason}",
    "table.cannot_save": "the server cannot save the table now: nothing was changed",
    "table.not_seated": "this is for the people seated at the table: sit down first",
    "table.bad_quick": "the quick messages are {known}",
    "table.not_started": "the game has not started yet",
    "table.person_key": "the device key (X-Canasta-Device) is missing or malformed: 16 to 64 "
                        "letters, digits, '-' or '_'",
    "table.quick_too_many": "at most {most} quick messages every {seconds} seconds: wait a "
                            "little",
}

#: The forms a rank takes in a template beside its plural name (``{rank}``: "kings"):
#: ``{rank_the}`` "the kings", ``{rank_all}`` "all your kings", ``{rank_one}`` "one" (of them),
#: so that a language whose words agree with the rank's gender writes them right.
RANK_FORMS: Final = ("the", "all", "one")

#: The meld ranks' plural names in the API's English (the players' are the catalogues').
RANK_PLURALS: Final = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "T": "tens",
                       "9": "nines", "8": "eights", "7": "sevens", "6": "sixes", "5": "fives",
                       "4": "fours", "W": "wild cards"}


def rank_plural(rank: str) -> str:
    """A meld rank in the plural, as the English of a refusal names it (``kings``, ``3s``)."""
    return RANK_PLURALS.get(rank, rank + "s")


#: A refusal that has no code of its own (a position or a record that is malformed: the
#: developer's errors, shown as they are): its one parameter is the English text.
UNCODED: Final = "error.uncoded"

__all__ = ["KINDS", "RANK_FORMS", "RANK_PLURALS", "REFUSALS", "UNCODED", "rank_plural"]
