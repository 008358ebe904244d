// szwadron serve: the table in the browser. Plain JavaScript, no build step, nothing fetched
// from the network but this server's API. Every rule answer comes from the server (the same
// library functions as the command line); the page only draws, drags and asks.
"use strict";

// Every string the page shows, in one place: English and Polish (the rulebook's own words,
// docs/glossary.md). The language is the page's choice (the select in its header, kept in
// localStorage), else ?lang=, else the server's --lang, else the browser's.
const L_EN = {
  select: "Select", move: "Move", ruler: "Ruler",
  singleBase: "drag one base (or hold Shift)", rulerOf: "ruler:", unit: "units", base: "bases",
  snapGrid: "snap", snapAngle: "turn step", turn: "turn", centre: "about the centre",
  "front-left": "about the front-left corner", "front-right": "about the front-right corner",
  "back-left": "about the back-left corner", "back-right": "about the back-right corner",
  selection: "Selection", nothingSelected: "Click a unit to select it; click an enemy to pick it as the target.",
  moveTitle: "Move (section 3)", keep: "Keep this position", back: "Put it back",
  rulerTitle: "Ruler (4.5.2, edge to edge)", rulerHint: "Click two units (or bases).",
  fireTitle: "Fire (section 4)", meleeTitle: "Melee (section 5)",
  checks: "Checks (live)", problems: "Problems", intrusions: "Control-zone intrusions (1.4)",
  contacts: "Contacts between enemies (PD-3, PD-14)", none: "none",
  moraleTitle: "Morale phase (6.8)", moraleOf: "Side", files: "Scenario file",
  overwrite: "overwrite if it exists", save: "Save", download: "Download", open: "Open",
  help: "Wheel: zoom · drag the cloth: pan · two fingers: pinch · drag a unit: move it · Shift-drag: one base · " +
    "[ and ]: turn the selected unit · Esc: clear",
  side: "side", engaged: "engaged with", notCoherent: "not coherent", targets: "Targets, best first",
  cannot: "Cannot fire at", expected: "expected", repulsePanic: "repulse or panic", canFire: "can fire",
  cannotFire: "CANNOT fire", removed: "figures removed", morale: "target's morale test",
  reach: "Can it reach?", meleeOdds: "Melee odds", legal: "LEGAL", illegal: "ILLEGAL", legalN: "LEGAL", illegalN: "ILLEGAL",
  reachable: "can reach", unreachable: "cannot reach", attackerRemoved: "attacker loses",
  defenderRemoved: "defender loses", saved: "saved as", opened: "opened", working: "…",
  zoneOf: "in the zone of", at: "at", ok: "no problems", bases: "bases", units: "units",
  distance: "distance", of: "of", path: "path", noMelee: "no melee", reorganise: "reorganise",
  flight: "flees", offTable: "leaves the table", surrender: "surrenders", pursuit: "pursuit",
  pursuitOf: "pursuit of {t}", toContact: "{cm} cm to contact", ofTerrain: "{cm} cm of it for terrain, 3.2", noWay: "no way into contact (3.2, 6.7.5)",
  reachesIt: "reaches it", onTheWay: "on the way (6.7.5)", metAfter: "{u} after {cm} cm",
  enemyPursuits: "the enemy's units pursuing this side's units move in this phase too (2.2.1 V)",
  nothingToDo: "every unit is in the normal state: nothing to do", mayNot: "may not",
  outcome: { no_test: "no test", passed: "passed", repulsed: "repulsed", panic: "panic", destroyed: "destroyed" },
  // the game (apply, undo, the log), placing units, terrain
  gameTitle: "Game (section 2)", nextPhase: "Next phase", undo: "Undo", downloadLog: "Download game log", saveLog: "Save game log",
  setUp: "set-up (no turn counter yet): actions are checked without the sequence of play",
  round: "round", phaseName: { morale: "morale phase", movement: "movement phase" },
  actions: "game log, actions", noActions: "no action yet", applyMove: "Apply move", chargeAt: "charge:",
  volleyDice: "volley d6:", remainderDice: "remainder die:", moraleDice: "morale dice:", or: "or",
  applyDice: "Apply with these dice", roll: "Roll", seed: "seed", meleeDice: "dice in order:",
  phaseDice: "dice in order:", applyPhase: "Apply the phase", applied: "applied", undone: "undone",
  refused: "refused", state: "state", pursuing: "pursuing", acted: "acted", lost: "figures lost",
  strength: "figures", place: "Place", terrain: "Terrain", placeTitle: "Place a unit (formations)",
  army: "army", profile: "profile", formation: "formation", placeFiles: "files", ranks: "ranks",
  facingDeg: "facing °", limber: "limber", unitId: "id", placeHint: "Click on the table: the middle of the front edge.",
  placed: "placed", terrainTitle: "Terrain", terrainKind: "kind", level: "level", width: "width",
  finish: "Finish", cancel: "Cancel", deleteFeature: "Delete feature",
  terrainHint: "Click the corners on the cloth, then Finish (a polygon: 3 or more; a line: 2 or more). " +
    "Click a feature to select it: drag its corners, or delete it.",
  formations: { line: "line", column: "column", skirmish: "skirmish", square: "square", battery: "battery" },
  terrainKinds: { hill: "hill", forest: "forest", rough: "rough ground", building: "building", fortification: "fortification",
    impassable: "impassable", obstacle: "obstacle (line)", high_wall: "high wall (line)" },
  noLimber: "no limbers", noCharge: "no charge", damage: "damage",
  states: { normal: "normal", panic: "panic", pursuit: "pursuit", repulsed: "repulsed" },
  kinds: { infantry: "infantry", cavalry: "cavalry", foot_artillery: "foot artillery", horse_artillery: "horse artillery", limber: "limber" },
  // counted nouns, [one, few, many] (English uses the first and the last)
  counted: { units: ["unit", "units", "units"], bases: ["base", "bases", "bases"], problems: ["problem", "problems", "problems"] },
  selectedFeature: "selected (drag its corners, or delete it):", corners: "corners", featureName: "name",
  moveHint: "Drag the unit (or turn it with [ and ]) to check its move.",
  moveCols: ["base", "cm", "of", "terrain"], touching: "touching (PD-3)", d6: "d6",
  meleeSides: { attacker: "attacker", defender: "defender" }, fight: "fight",
  meleeOutcome: { engaged: "engaged", held: "held", repulsed: "repulsed", panic: "panic", pursuit: "pursuit", destroyed: "destroyed" },
  standsNotEngaged: "stands, not engaged (5.7.3)",
  actionNames: { move: "move", fire: "fire", melee: "melee", morale: "morale", turn: "turn", march: "fire on the march", march_move: "the half move of a fire on the march", march_fire: "the fire of a fire on the march", fire_move: "fire and a move after it", charge: "charge", disengage: "disengage", push_up: "push-up", declare: "declared fire (4.12.2)", reorganise: "reorganise" },
  volleyMissing: "type the dice you rolled for the volley (one number 1 to 6 a die, e.g. 1,4,6), or click Roll",
  hillLevel: "level: a hill is of level 1 to 10 (a whole number)",
  tallLevel: "level: a whole number from 0 (not tall) to 10",
  // the moves of a melee: disengaging (5.8), the push-up (5.6)
  declareFire: "Declare fire (4.12.2)", declaredFire: "declared fire (4.12.2)",
  declareHint: "instead of acting now: it fires in the opponent's movement phase (4.12.5)",
  declaredNow: "the fire it declared (4.12.2), in the opponent's movement phase, at the target where it stands (4.12.5)",
  // fire in the opponent's turn (4.12): at the first charger (4.12.6), at the point of a move (4.12.3)
  chargedFire: "fire at a charger (4.12.6)", mayFireCharger: "may fire at the first unit charging it (4.12.6)",
  chargedNow: "the fire at the first unit charging it (4.12.6), in the opponent's turn: place the charger at the point of its charge where it is fired at, before contact",
  declaredAt: "the fire it declared (4.12.2), interrupting the target's move at the point where it is placed (4.12.3); out of range there, it is lost (4.12.4)",
  placeTarget: "Place the target where it is fired at (4.12.3)", fireWhereStands: "Put it back: fire where it stands",
  placeTargetHint: "Move mode: drag the target to the point of its move (or its charge) where it is fired at; a target repulsed or panicking stops there (4.12.3)",
  placingHint: "drag it to the point of its move where it is fired at (4.12.3, 4.12.6): not a move; the fire panel fires at it there",
  firedAt: "fired at where it is placed:", fireLostDeclared: "Fire (lost: out of range, 4.12.4)",
  fireLostCharged: "Fire (lost: out of range, 4.5.5)", lostOut: "lost: out of range, no die rolled",
  lostHint: "out of range: no die is rolled; the fire is spent",
  disengageTitle: "Disengage (5.8)", disengageOdds: "Disengage? (5.8)", moveAs: "this move is:", plainMove: "a move",
  pushUpAt: "push-up towards", disengageMove: "disengaging", from: "from", automatic: "automatic disengage: no test (7.6.1)",
  moraleTest: "morale test", passes: "passes", fails: "fails", panicsFlees: "panics and flees at once (5.8.3)",
  pursuitTests: "each enemy's test for uncontrolled pursuit (5.8.4)", pursuitTest: "test", pursues: "pursues",
  noPursuit: { artillery: "artillery: never pursues", already: "pursuing already", no_test: "panicking: no test" },
  moveAway: "the move away", found: "found straight away from the enemy", dragged: "as dragged",
  disengageHint: "To give your own move away: Move mode, drag the unit (this move is: disengaging).",
  disengageDrag: "Drag the unit away from the enemy: the disengagement (5.8) below checks this move and is applied there, with its dice.",
  disengageDiceHint: "in the order rolled: the unit's test, each enemy's pursuit test, then the flight's 2d6 if it failed, then each pursuer's 2d6",
  disengageMissing: "type the dice you rolled (the unit's test first, e.g. 3,5), or click Roll",
  disengaged: "disengaged", notDisengaged: "failed: panic",
  pushUpTitle: "the push-up, in this order (5.6.2):", pushUpOf: "Push up", towards: "towards", figures: "figures", upTo: "up to",
  pushUpHint: "Drag the figures not engaged towards the enemy just fought (Shift-drag: one base); at most 4 cm whatever the terrain (5.6.7).",
  // the combined melee (5.10): several units on a side
  combined: "combined melee (5.10)", attackersOf: "attacking:", defendersOf: "defending:",
  addToMelee: "+ add to this melee", addHint: "or Shift-click a unit on the table", noneToAdd: "no other unit touches an enemy of this melee",
  dropFromMelee: "take out of this melee", meleeContinuing: "continuing melee (5.7.4)",
  meleeDeclare: "the attackers declare defence (5.7.4)", meleePursue: "pursue without the test (6.3.6, 5.5.8)",
  meleeOrderTitle: "type the dice in this order (each group's remainder die right after it, when its hits leave a remainder: 1.5.1, 5.10.4):", strikesFirst: "strikes first (7.7)", expectedLoss: "expected loss",
  loses: "{u} loses", jointOutcomes: "outcomes together, most likely first", withLeft: "with the figures left",
  unlessGone: "not rolled if {u} has no figure left",
  orderStrikeBack: "{u}: the strike-back test of a unit in panic, 1 d6 (6.6.4)",
  orderGroup: "{side} → {target}: {n} d6 on ≤ {uw} ({figures})",
  orderTests: "the morale tests (5.10.5), 1 d6 each: first {first} (the repulse test, then the panic test if it fails), then {then} (the repulse test, or the pursuit test when every opponent fled); a unit with no losses rolls none (5.5.1)",
  orderAfter: "then 2d6 for each flight and each pursuit (6.6.2, 6.7.1)",
  pushUpPair: "the push-up, pair by pair (5.10.6, 5.6):",
};

// The same strings in the rulebook's Polish (issue 19; docs/glossary.md).
const L_PL = {
  select: "Wybór", move: "Ruch", ruler: "Miarka",
  singleBase: "przeciągnij jedną podstawkę (lub przytrzymaj Shift)", rulerOf: "miarka:", unit: "oddziały", base: "podstawki",
  snapGrid: "przyciąganie", snapAngle: "krok obrotu", turn: "obrót", centre: "wokół środka",
  "front-left": "wokół lewego przedniego rogu", "front-right": "wokół prawego przedniego rogu",
  "back-left": "wokół lewego tylnego rogu", "back-right": "wokół prawego tylnego rogu",
  selection: "Wybór", nothingSelected: "Kliknij oddział, by go wybrać; kliknij oddział wroga, by wskazać go jako cel.",
  moveTitle: "Ruch (rozdział 3)", keep: "Zostaw to położenie", back: "Cofnij na miejsce",
  rulerTitle: "Miarka (4.5.2, od krawędzi do krawędzi)", rulerHint: "Kliknij dwa oddziały (lub podstawki).",
  fireTitle: "Ostrzał (rozdział 4)", meleeTitle: "Walka wręcz (rozdział 5)",
  checks: "Sprawdzanie (na bieżąco)", problems: "Problemy", intrusions: "Wejścia w strefę kontroli (1.4)",
  contacts: "Styki z wrogiem (PD-3, PD-14)", none: "brak",
  moraleTitle: "Faza morale (6.8)", moraleOf: "Strona", files: "Plik scenariusza",
  overwrite: "nadpisz, jeśli istnieje", save: "Zapisz", download: "Pobierz", open: "Otwórz",
  help: "Kółko: powiększenie · przeciągnij sukno: przesunięcie · dwa palce: szczypanie · przeciągnij oddział: ruch · Shift: jedna podstawka · " +
    "[ i ]: obrót wybranego oddziału · Esc: wyczyść",
  side: "strona", engaged: "związany w walce wręcz z", notCoherent: "brak koherencji", targets: "Cele, najlepsze najpierw",
  cannot: "Nie może ostrzelać", expected: "oczekiwane", repulsePanic: "odrzucenie lub panika", canFire: "może prowadzić ostrzał",
  cannotFire: "NIE MOŻE prowadzić ostrzału", removed: "zdjęte figurki", morale: "test morale celu",
  reach: "Czy dojdzie?", meleeOdds: "Szanse walki wręcz", legal: "DOZWOLONY", illegal: "NIEDOZWOLONY", legalN: "DOZWOLONE", illegalN: "NIEDOZWOLONE",
  reachable: "może dojść do", unreachable: "nie może dojść do", attackerRemoved: "straty atakującego",
  defenderRemoved: "straty broniącego się", saved: "zapisano jako", opened: "otwarto", working: "…",
  zoneOf: "w strefie kontroli", at: "w odległości", ok: "brak problemów", bases: "podstawki", units: "oddziały",
  distance: "odległość", of: "z", path: "droga", noMelee: "nie ma walki wręcz", reorganise: "reorganizacja",
  flight: "ucieka", offTable: "opuszcza planszę", surrender: "poddaje się", pursuit: "pościg",
  pursuitOf: "pościg za {t}", toContact: "{cm} cm do styku", ofTerrain: "w tym {cm} cm za teren, 3.2", noWay: "bez drogi do styku (3.2, 6.7.5)",
  reachesIt: "dochodzi do niego", onTheWay: "na drodze (6.7.5)", metAfter: "{u} po {cm} cm",
  enemyPursuits: "w tej fazie ruszają się też oddziały wroga ścigające oddziały tej strony (2.2.1 V)",
  nothingToDo: "wszystkie oddziały są w normalnym stanie morale: nie ma nic do zrobienia", mayNot: "nie może",
  outcome: { no_test: "bez testu", passed: "zdany", repulsed: "odrzucony", panic: "panika", destroyed: "zniszczony" },
  gameTitle: "Gra (rozdział 2)", nextPhase: "Następna faza", undo: "Cofnij", downloadLog: "Pobierz zapis gry", saveLog: "Zapisz zapis gry",
  setUp: "rozstawienie (bez licznika tur): akcje są sprawdzane bez kolejności gry",
  round: "runda", phaseName: { morale: "faza morale", movement: "faza ruchu" },
  actions: "zapis gry, akcje", noActions: "jeszcze żadnej akcji", applyMove: "Zastosuj ruch", chargeAt: "atak na:",
  volleyDice: "kości salwy K6:", remainderDice: "kość reszty:", moraleDice: "kości morale:", or: "albo",
  applyDice: "Zastosuj z tymi kośćmi", roll: "Rzuć", seed: "ziarno", meleeDice: "kości po kolei:",
  phaseDice: "kości po kolei:", applyPhase: "Zastosuj fazę", applied: "zastosowano", undone: "cofnięto",
  refused: "odmowa", state: "stan", pursuing: "ściga", acted: "wykonał akcję", lost: "utracone figurki",
  strength: "figurki", place: "Rozstaw", terrain: "Teren", placeTitle: "Rozstaw oddział (szyki)",
  army: "armia", profile: "profil", formation: "szyk", placeFiles: "w szeregu", ranks: "szeregi",
  facingDeg: "kierunek °", limber: "jaszcze", unitId: "id", placeHint: "Kliknij na stole: środek przedniej krawędzi.",
  placed: "rozstawiono", terrainTitle: "Teren", terrainKind: "rodzaj", level: "poziom", width: "szerokość",
  finish: "Zakończ", cancel: "Anuluj", deleteFeature: "Usuń element",
  terrainHint: "Klikaj rogi na suknie, potem Zakończ (wielokąt: 3 lub więcej; linia: 2 lub więcej). " +
    "Kliknij element terenu, by go wybrać: przeciągaj jego rogi albo go usuń.",
  formations: { line: "linia", column: "kolumna", skirmish: "szyk rozproszony", square: "czworobok", battery: "bateria" },
  terrainKinds: { hill: "wzgórze", forest: "las", rough: "krzaki, rumowisko", building: "budynek", fortification: "fortyfikacja",
    impassable: "teren niedostępny", obstacle: "przeszkoda (linia)", high_wall: "wysoki mur (linia)" },
  noLimber: "bez jaszczy", noCharge: "bez ataku", damage: "uszkodzenia",
  selectedFeature: "wybrany (przeciągaj jego rogi albo go usuń):", corners: "rogi", featureName: "nazwa",
  states: { normal: "normalny", panic: "panika", pursuit: "pościg", repulsed: "odrzucony" },
  kinds: { infantry: "piechota", cavalry: "kawaleria", foot_artillery: "artyleria piesza", horse_artillery: "artyleria konna", limber: "jaszcz" },
  // odmiana przez liczby, [1, 2-4 (22-24 ...), 5+ (12-14 ...)]
  counted: { units: ["oddział", "oddziały", "oddziałów"], bases: ["podstawka", "podstawki", "podstawek"], problems: ["problem", "problemy", "problemów"] },
  moveHint: "Przeciągnij oddział (albo obróć go klawiszami [ i ]), by sprawdzić jego ruch.",
  moveCols: ["podstawka", "cm", "dozwolone", "teren"], touching: "stykają się (PD-3)", d6: "K6",
  meleeSides: { attacker: "atakujący", defender: "broniący się" }, fight: "walka",
  meleeOutcome: { engaged: "związany walką", held: "stoi", repulsed: "odrzucony", panic: "panika", pursuit: "pościg", destroyed: "zniszczony" },
  standsNotEngaged: "stoi, nie jest związany walką (5.7.3)",
  actionNames: { move: "ruch", fire: "ostrzał", melee: "walka wręcz", morale: "faza morale", turn: "następna faza", march: "ostrzał w marszu", march_move: "pół ruchu ostrzału w marszu", march_fire: "strzał ostrzału w marszu", fire_move: "ostrzał i ruch po nim", charge: "atak w walce wręcz", disengage: "oderwanie się", push_up: "dosuwanie", declare: "deklaracja ostrzału (4.12.2)", reorganise: "reorganizacja" },
  volleyMissing: "wpisz wyniki rzutu kośćmi salwy (jedna liczba od 1 do 6 na kość, np. 1,4,6) albo kliknij Rzuć",
  hillLevel: "poziom: wzgórze ma poziom od 1 do 10 (liczba całkowita)",
  tallLevel: "poziom: liczba całkowita od 0 (nie jest wysoki) do 10",
  declareFire: "Zadeklaruj ostrzał (4.12.2)", declaredFire: "zadeklarowany ostrzał (4.12.2)",
  declareHint: "zamiast akcji teraz: strzela w fazie ruchu przeciwnika (4.12.5)",
  declaredNow: "ostrzał zadeklarowany (4.12.2), w fazie ruchu przeciwnika, do celu tam, gdzie stoi (4.12.5)",
  chargedFire: "ostrzał atakującego oddziału (4.12.6)", mayFireCharger: "może ostrzelać pierwszą jednostkę, która zaatakuje go w walce wręcz (4.12.6)",
  chargedNow: "ostrzał atakującego oddziału (4.12.6), w turze przeciwnika: ustaw atakującego w punkcie jego ataku, w którym jest ostrzeliwany, przed zetknięciem",
  declaredAt: "ostrzał zadeklarowany (4.12.2), przerywający ruch celu w punkcie, w którym go ustawiono (4.12.3); poza zasięgiem tam — stracony (4.12.4)",
  placeTarget: "Ustaw cel tam, gdzie jest ostrzeliwany (4.12.3)", fireWhereStands: "Cofnij: strzelaj tam, gdzie stoi",
  placeTargetHint: "Tryb Ruch: przeciągnij cel do punktu jego ruchu (lub ataku), w którym jest ostrzeliwany; odrzucony lub w panice zatrzymuje się tam (4.12.3)",
  placingHint: "przeciągnij go do punktu jego ruchu, w którym jest ostrzeliwany (4.12.3, 4.12.6): to nie ruch; panel ostrzału strzela do niego tam",
  firedAt: "ostrzeliwany tam, gdzie go ustawiono:", fireLostDeclared: "Strzelaj (stracony: poza zasięgiem, 4.12.4)",
  fireLostCharged: "Strzelaj (stracony: poza zasięgiem, 4.5.5)", lostOut: "stracony: poza zasięgiem, bez rzutu kośćmi",
  lostHint: "poza zasięgiem: bez rzutu kośćmi; ostrzał zostaje zużyty",
  disengageTitle: "Oderwanie się od nieprzyjaciela (5.8)", disengageOdds: "Oderwanie się? (5.8)", moveAs: "ten ruch to:", plainMove: "ruch",
  pushUpAt: "dosuwanie do", disengageMove: "oderwanie się", from: "od", automatic: "automatyczne oderwanie: bez testu (7.6.1)",
  moraleTest: "test morale", passes: "zdany", fails: "niezdany", panicsFlees: "panika i natychmiastowa ucieczka (5.8.3)",
  pursuitTests: "test każdego wrogiego oddziału na niekontrolowany pościg (5.8.4)", pursuitTest: "test", pursues: "pościg",
  noPursuit: { artillery: "artyleria: nigdy nie ściga", already: "już ściga", no_test: "w panice: bez testu" },
  moveAway: "odsunięcie się", found: "wyznaczone prosto od nieprzyjaciela", dragged: "jak przeciągnięto",
  disengageHint: "Własne odsunięcie się: tryb Ruch, przeciągnij oddział (ten ruch to: oderwanie się).",
  disengageDrag: "Przeciągnij oddział od nieprzyjaciela: oderwanie się (5.8) poniżej sprawdza ten ruch i tam się je stosuje, z kośćmi.",
  disengageDiceHint: "w kolejności rzutów: test oddziału, test każdego wroga na pościg, potem 2K6 ucieczki, jeśli test niezdany, potem 2K6 każdego ścigającego",
  disengageMissing: "wpisz wyniki rzutów (najpierw test oddziału, np. 3,5) albo kliknij Rzuć",
  disengaged: "oderwał się", notDisengaged: "niezdany: panika",
  pushUpTitle: "dosuwanie jednostek, w tej kolejności (5.6.2):", pushUpOf: "Dosuń", towards: "do", figures: "figurki", upTo: "najwyżej",
  pushUpHint: "Przeciągnij jednostki niezwiązane w walce wręcz w kierunku nieprzyjaciela, z którym oddział stoczył walkę (Shift: jedna podstawka); najwyżej 4 cm bez względu na teren (5.6.7).",
  combined: "łączona walka wręcz (5.10)", attackersOf: "atakujący:", defendersOf: "broniący się:",
  addToMelee: "+ dołącz do tej walki", addHint: "albo kliknij oddział na stole z klawiszem Shift", noneToAdd: "żaden inny oddział nie styka się z wrogiem w tej walce",
  dropFromMelee: "wyłącz z tej walki", meleeContinuing: "walka wręcz kontynuowana (5.7.4)",
  meleeDeclare: "atakujący deklarują obronę zamiast ataku (5.7.4)", meleePursue: "pościg bez rzutu (6.3.6, 5.5.8)",
  meleeOrderTitle: "wpisz wyniki kości w tej kolejności (kość reszty każdej grupy zaraz po niej, gdy z jej trafień zostaje reszta: 1.5.1, 5.10.4):", strikesFirst: "uderza pierwszy (7.7)", expectedLoss: "oczekiwane straty",
  loses: "straty {u}", jointOutcomes: "wyniki razem, najbardziej prawdopodobne najpierw", withLeft: "pozostałymi figurkami",
  unlessGone: "bez rzutu, gdy {u} nie ma już figurek",
  orderStrikeBack: "{u}: test oddziału w panice, czy odpiera, 1 K6 (6.6.4)",
  orderGroup: "{side} → {target}: {n} K6 na ≤ {uw} ({figures})",
  orderTests: "testy morale (5.10.5), po 1 K6: najpierw {first} (test „na odrzucenie”, po nim test „na panikę”, jeśli niezdany), potem {then} (test „na odrzucenie” albo test „na niekontrolowany pościg”, gdy wszyscy przeciwnicy uciekli); oddział bez strat nie testuje (5.5.1)",
  orderAfter: "potem 2K6 każdej ucieczki i każdego pościgu (6.6.2, 6.7.1)",
  pushUpPair: "dosuwanie jednostek, parami (5.10.6, 5.6):",
};

const LANGS = { en: L_EN, pl: L_PL };
let LANG = "en";
let L = L_EN;

/** The page's language: its own choice, else ?lang=, else the server's (``serve --lang``, or its locale). */
function initialLang(serverLang) {
  const stored = localStorage.getItem("szwadron-lang");
  const asked = new URLSearchParams(location.search).get("lang");
  for (const c of [stored, asked, serverLang]) {
    if (c && LANGS[c]) return c;
  }
  return "en";
}

/** ``n`` and its noun in the page's language, with Polish plural forms (1 oddział, 2 oddziały, 5 oddziałów). */
function count(n, key) {
  const [one, few, many] = L.counted[key];
  if (n === 1) return `${n} ${one}`;
  const t = n % 10, h = n % 100;
  return `${n} ${LANG === "pl" && t >= 2 && t <= 4 && (h < 10 || h >= 20) ? few : many}`;
}
const stateName = (s) => (L.states[s] || s);
const outcomeName = (o) => (L.meleeOutcome[o] || o);
const actionName = (a) => (L.actionNames[a] || a);

function setLang(code) {
  LANG = LANGS[code] ? code : "en";
  L = LANGS[LANG];
  document.documentElement.lang = LANG;
  const sel = document.querySelector("#lang");
  if (sel) sel.value = LANG;
}

const NS = "http://www.w3.org/2000/svg";
const $ = (sel) => document.querySelector(sel);
const TOKEN = new URLSearchParams(location.search).get("token");

// ------------------------------------------------------------------------------------------
// state
const S = {
  doc: null,          // /api/state
  pos: {},            // unit id -> [[x, y, facing], ...] as shown
  orig: {},           // as loaded
  kinds: {},          // unit id -> {side, kind, state, sizes: [[w, d]]}
  mode: "select",
  selected: null, target: null,
  check: null, targets: null, fire: null,
  before: null, moving: null, moveReport: null,   // move mode
  ruler: [], measure: null,
  reachDoc: null, meleeDoc: null,
  meleeMore: [],      // the units added to the selected unit's melee with its target (5.10)
  disengage: null, disengageDoc: null,  // the unit whose disengagement is shown (5.8), its answer
  pushUp: null,       // {unit, enemy, candidates}: the push-up a melee named (5.6)
  fireAt: null,       // {shooter, target}: the target dragged to where it is fired at (4.12.3, 4.12.6)
  moraleSide: null, armies: null,
  draft: [], terrainSel: null,  // terrain mode: corners clicked, the feature selected
  view: { k: 5, tx: 20, ty: 20 },
};

// ------------------------------------------------------------------------------------------
// the API
async function api(path, body) {
  const headers = { "content-type": "application/json" };
  if (TOKEN) headers["x-szwadron-token"] = TOKEN;
  headers["accept-language"] = LANG;
  const r = await fetch(path, body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) });
  const ctype = r.headers.get("content-type") || "";
  const data = ctype.split(";")[0].trim() === "application/json" ? await r.json() : await r.text();
  if (!r.ok) {
    const err = new Error(data && data.error ? data.error : `${r.status}`);
    err.rule = data && data.rule;
    throw err;
  }
  return data;
}

function samePoses(a, b) {
  return a.length === b.length && a.every((p, i) => p[0] === b[i][0] && p[1] === b[i][1] && p[2] === b[i][2]);
}

function patch(pos) {
  // the units that differ from the loaded file
  const out = {};
  for (const [uid, poses] of Object.entries(pos || S.pos)) {
    const o = S.orig[uid];
    if (poses.some((p, i) => p[0] !== o[i][0] || p[1] !== o[i][1] || p[2] !== o[i][2])) out[uid] = poses;
  }
  return out;
}

function status(text) { $("#status").textContent = text || ""; }

// ------------------------------------------------------------------------------------------
// geometry (the server's base_corners: front-left, front-right, back-right, back-left)
const r2 = (v) => Math.round(v * 100) / 100;
const norm = (a) => r2(((a % 360) + 360) % 360);

function corners(x, y, facing, w, d) {
  const t = facing * Math.PI / 180;
  const fx = Math.cos(t), fy = Math.sin(t), rx = Math.sin(t), ry = -Math.cos(t);
  const hf = d / 2, hr = w / 2;
  return [
    [x + fx * hf - rx * hr, y + fy * hf - ry * hr],
    [x + fx * hf + rx * hr, y + fy * hf + ry * hr],
    [x - fx * hf + rx * hr, y - fy * hf + ry * hr],
    [x - fx * hf - rx * hr, y - fy * hf - ry * hr],
  ];
}

function baseCorners(uid, i) {
  const p = S.pos[uid][i], s = S.kinds[uid].sizes[i];
  return corners(p[0], p[1], p[2], s[0], s[1]);
}

function centreOf(baseId) {
  const [uid, i] = splitBase(baseId);
  const p = S.pos[uid][i];
  return [p[0], p[1]];
}

function splitBase(id) { const k = id.lastIndexOf("/"); return [id.slice(0, k), Number(id.slice(k + 1))]; }

function hull(points) {
  const p = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [], upper = [];
  for (const q of p) { while (lower.length >= 2 && cross(lower.at(-2), lower.at(-1), q) <= 0) lower.pop(); lower.push(q); }
  for (const q of p.reverse()) { while (upper.length >= 2 && cross(upper.at(-2), upper.at(-1), q) <= 0) upper.pop(); upper.push(q); }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

// ------------------------------------------------------------------------------------------
// drawing
function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
const pts = (list) => list.map((p) => `${p[0].toFixed(3)},${p[1].toFixed(3)}`).join(" ");

function applyView() {
  const { k, tx, ty } = S.view;
  // table y grows towards side B (the top of the screen): flip y
  $("#world").setAttribute("transform", `translate(${tx} ${ty}) scale(${k} ${-k})`);
}

function toTable(clientX, clientY) {
  const r = $("#table").getBoundingClientRect();
  return [(clientX - r.left - S.view.tx) / S.view.k, -(clientY - r.top - S.view.ty) / S.view.k];
}

function toScreen(x, y) {
  const r = $("#table").getBoundingClientRect();
  return [r.left + S.view.tx + x * S.view.k, r.top + S.view.ty - y * S.view.k];
}

function fit() {
  const r = $("#table").getBoundingClientRect();
  const { width, depth } = S.doc.table;
  const k = Math.min((r.width - 20) / width, (r.height - 20) / depth);
  S.view = { k, tx: (r.width - width * k) / 2, ty: (r.height + depth * k) / 2 };
  applyView();
}

function label(text, x, y, cls, parent) {
  const t = el("text", { x: 0, y: 0, class: `label ${cls || ""}`, transform: `translate(${x} ${y}) scale(1 -1)` }, parent);
  t.textContent = text;
  return t;
}

function drawTerrain() {
  const g = $("#terrain");
  g.replaceChildren();
  const { width, depth } = S.doc.table;
  const cloth = $("#cloth");
  cloth.setAttribute("width", width);
  cloth.setAttribute("height", depth);
  for (const t of S.doc.terrain) {
    const geom = JSON.parse(t.geometry);
    const polys = geom.type === "Polygon" ? [geom.coordinates] : geom.type === "MultiPolygon" ? geom.coordinates : [];
    for (const rings of polys) {
      const d = rings.map((ring) => "M" + ring.map((p) => `${p[0]},${p[1]}`).join("L") + "Z").join(" ");
      el("path", { d, class: `terrain ${t.kind} l${t.level}${t.id === S.terrainSel ? " tsel" : ""}`, "data-terrain": t.id, "fill-rule": "evenodd" }, g);
    }
  }
  const lg = $("#labels");
  for (const t of S.doc.terrain) {
    if (t.linear) continue;
    const geom = JSON.parse(t.geometry);
    const ring = geom.type === "Polygon" ? geom.coordinates[0] : geom.coordinates[0][0];
    const cx = ring.reduce((s, p) => s + p[0], 0) / ring.length, cy = Math.max(...ring.map((p) => p[1])) - 2;
    label(t.name || t.id, cx - 4, cy, "terrainlabel", lg).setAttribute("data-terrain-label", t.id);
  }
}

function drawBases() {
  const g = $("#bases");
  g.replaceChildren();
  const marks = classMarks();
  for (const u of S.doc.units) {
    const uid = u.id;
    S.pos[uid].forEach((p, i) => {
      const c = baseCorners(uid, i);
      const id = `${uid}/${i}`;
      const cls = ["base", u.side, u.state === "panic" ? "panic" : "", u.state === "pursuit" ? "pursuit" : ""];
      if (uid === S.selected) cls.push("sel");
      if (uid === S.target) cls.push("target");
      if (S.selected && S.meleeMore.includes(uid)) cls.push(u.side === S.kinds[S.selected].side ? "sel" : "target", "joined");
      if (S.pushUp && S.mode === "move" && S.pushUp.candidates.includes(id)) cls.push("candidate");
      for (const m of marks[id] || []) cls.push(m);
      el("polygon", { points: pts(c), class: cls.join(" "), "data-base": id, "data-unit": uid, "data-index": i }, g);
      // a strip along the front edge shows the facing
      const s = 0.28;
      const f = [c[0], c[1], [c[1][0] + (c[2][0] - c[1][0]) * s, c[1][1] + (c[2][1] - c[1][1]) * s],
        [c[0][0] + (c[3][0] - c[0][0]) * s, c[0][1] + (c[3][1] - c[0][1]) * s]];
      el("polygon", { points: pts(f), class: `base front ${u.side}` }, g);
    });
  }
  drawUnitLabels();
}

function drawUnitLabels() {
  const lg = $("#labels");
  lg.querySelectorAll(".unitlabel").forEach((n) => n.remove());
  // each unit's outline box, to keep a label off another unit's bases (a melee's: front to front)
  const boxes = S.doc.units.map((u) => {
    const cs = S.pos[u.id].flatMap((_, i) => baseCorners(u.id, i));
    return { id: u.id, x0: Math.min(...cs.map((c) => c[0])), x1: Math.max(...cs.map((c) => c[0])),
      y0: Math.min(...cs.map((c) => c[1])), y1: Math.max(...cs.map((c) => c[1])) };
  });
  const covered = (uid, x, y, w) => boxes.some((b) => b.id !== uid && x + w > b.x0 && x < b.x1 && y + 1.3 > b.y0 && y - 0.4 < b.y1);
  for (const u of S.doc.units) {
    const bits = [u.id];
    if (u.lost > 0) bits.push(`−${u.lost}`);
    if (u.state !== "normal") bits.push(stateName(u.state) + (u.pursuing ? ` → ${u.pursuing}` : ""));
    const ps = S.pos[u.id], own = boxes.find((b) => b.id === u.id);
    const x = Math.min(...ps.map((p) => p[0])) - 1;
    let y = Math.max(...ps.map((p) => p[1])) + 2.6;
    // above is another unit (front to front in a melee): the label goes below its own bases
    if (covered(u.id, x, y, 0.9 * bits.join(" ").length)) y = own.y0 - 2.2;
    label(bits.join(" "), x, y, "unitlabel", lg).setAttribute("data-unit-label", u.id);
  }
}

function classMarks() {
  const m = {};
  const add = (id, c) => { (m[id] = m[id] || []).push(c); };
  const c = S.check;
  if (!c) return m;
  for (const [a, b] of c.overlaps) { add(a, "overlap"); add(b, "overlap"); }
  for (const b of c.off_table) add(b, "offtable");
  for (const z of c.zone_intrusions) add(z.base, "zone");
  for (const b of c.bases_in_contact) add(b, "contact");
  for (const u of c.units) if (!u.coherent) for (const g of u.groups) for (const b of g) add(b, "incoherent");
  return m;
}

function drawMarks() {
  const g = $("#marks");
  g.replaceChildren();
  const c = S.check;
  if (c) {
    for (const z of c.zone_intrusions) {
      const a = centreOf(z.base), b = centreOf(z.zone_of);
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "zone-line" }, g);
    }
  }
  // fire: bands and sight lines
  const f = S.fire;
  if (f && S.target) {
    for (const s of f.shooters) {
      const [uid, i] = splitBase(s.base);
      if (!S.pos[uid]) continue;
      const from = centreOf(s.base);
      if (s.can_fire) {
        for (const line of s.lines) {
          const [tu, ti] = splitBase(line.target);
          el("polygon", { points: pts(hull(baseCorners(uid, i).concat(baseCorners(tu, ti)))), class: "band" }, g);
          const to = centreOf(line.target);
          el("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: "sight" }, g);
        }
      } else if (s.message) {
        const m = s.message.match(new RegExp(`${S.target.replace(/[-/]/g, "\\$&")}/\\d+`));
        if (m) {
          const to = centreOf(m[0]);
          el("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: "sight blocked", "data-rule": s.rule }, g);
        }
      }
    }
  }
  document.querySelectorAll(".terrain.blocker").forEach((n) => n.classList.remove("blocker"));
  if (f && f.reason) {
    for (const t of S.doc.terrain) {
      if (new RegExp(`\\b${t.id}\\b`).test(f.reason.message)) {
        document.querySelectorAll(`[data-terrain="${t.id}"]`).forEach((n) => n.classList.add("blocker"));
      }
    }
  }
  // move: the paths of the bases
  if (S.moveReport && S.moveReport.bases) {  // a refused move (an error answer) has no paths
    for (const b of S.moveReport.bases) {
      if (b.poses && b.poses.length > 1) {
        el("polyline", { points: pts(b.poses), class: `path ${S.moveReport.legal ? "legal" : ""}` }, g);
      }
    }
  }
  const away = S.disengage && S.disengageDoc && S.disengageDoc.move;
  if (away) {  // 5.8.2: the move away, its paths; the found one also its end (the unit stays drawn where it is)
    for (const b of away.bases) {
      el("polyline", { points: pts(b.poses), class: `path away ${S.disengageDoc.legal ? "legal" : ""}` }, g);
      if (S.disengageDoc.found) {
        const [uid, i] = splitBase(b.base), [x, y, f] = b.poses.at(-1), s = S.kinds[uid].sizes[i];
        el("polygon", { points: pts(corners(x, y, f, s[0], s[1])), class: "ghost away", "data-away": b.base }, g);
      }
    }
  }
  if (S.reachDoc && S.reachDoc.path.length) {
    el("polyline", { points: pts(S.reachDoc.path), class: `path ${S.reachDoc.reachable ? "legal" : ""}`, id: "reach-path" }, g);
  }
  // ruler
  if (S.measure) {
    const [a, b] = S.measure.points;
    el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "ruler", id: "ruler-line" }, g);
    for (const p of [a, b]) el("circle", { cx: p[0], cy: p[1], r: 0.35, class: "ruler-end" }, g);
    label(`${S.measure.distance.toFixed(2)} cm`, (a[0] + b[0]) / 2 + 0.6, (a[1] + b[1]) / 2, "measure", g);
  }
}

function drawArcs() {
  const g = $("#arcs");
  g.replaceChildren();
  if (!S.targets || !S.targets.arcs) return;
  const reach = unitDoc(S.selected).range;  // the arcs drawn out to the range (4.5.1)
  for (const a of S.targets.arcs) {
    const [uid, i] = splitBase(a.base);
    if (!S.pos[uid]) continue;
    const c = baseCorners(uid, i), p = S.pos[uid][i];
    a.edges.forEach((e, k) => {
      const p1 = c[k], p2 = c[(k + 1) % 4];
      const far = (q) => { const dx = q[0] - p[0], dy = q[1] - p[1], n = Math.hypot(dx, dy); return [p[0] + dx / n * reach, p[1] + dy / n * reach]; };
      if (e.fires && !e.touched && reach > 0) el("polygon", { points: pts([p1, far(p1), far(p2), p2]), class: "arc" }, g);
      if (e.fires) {
        el("line", { x1: p1[0], y1: p1[1], x2: p2[0], y2: p2[1], class: e.touched ? "edge-blocked" : "edge-ok", "data-edge": `${a.base}:${e.edge}` }, g);
      }
    });
  }
}

function redraw() {
  drawBases();
  drawArcs();
  drawMarks();
  drawGhosts();
}

function drawGhosts() {
  const g = $("#ghosts");
  g.replaceChildren();
  if (S.mode !== "move" || !S.before || !S.moving) return;
  const uid = S.moving;
  S.before[uid].forEach((p, i) => {
    const s = S.kinds[uid].sizes[i];
    el("polygon", { points: pts(corners(p[0], p[1], p[2], s[0], s[1])), class: "ghost" }, g);
  });
}

// ------------------------------------------------------------------------------------------
// live answers: one request bundle in flight, the latest change sent when it returns
let inflight = false, dirty = false;

function refresh() {
  if (inflight) { dirty = true; return; }
  inflight = true;
  dirty = false;
  const positions = patch();
  const jobs = [api("/api/check", { positions }).then((d) => { S.check = d; })];
  if (S.selected) {
    jobs.push(api("/api/targets", { positions, shooter: S.selected }).then((d) => { S.targets = d; }, () => { S.targets = null; }));
  }
  if (S.selected && S.target) {
    jobs.push(api("/api/fire", fireBody(positions)).then((d) => { S.fire = d; }, (e) => { S.fire = { error: e.message }; }));
  }
  const as = moveAs();
  if (S.mode === "move" && S.moving && S.before) {
    // clicked, not moved yet; or the disengagement's move (5.8), checked by its own answer below
    const placing = S.fireAt && S.fireAt.target === S.moving;  // 4.12.3: placed where it is fired at, not moved
    if (samePoses(S.pos[S.moving], S.before[S.moving]) || as === "disengage" || placing) S.moveReport = null;
    else {
      const body = { positions: patch(S.before), unit: S.moving, to: S.pos[S.moving] };
      if (as.startsWith("push:")) body.push_up = as.slice(5);  // 5.6
      jobs.push(api("/api/move", body)
        .then((d) => { S.moveReport = d; }, (e) => { S.moveReport = { error: e.message, rule: e.rule }; }));
    }
  }
  if (S.disengage) {
    const uid = S.disengage;  // an answer that comes back after the disengagement was applied or closed is dropped
    jobs.push(api("/api/disengage", disengageBody()).then((d) => { if (S.disengage === uid) S.disengageDoc = d; },
      (e) => { if (S.disengage === uid) S.disengageDoc = { error: e.message, rule: e.rule }; }));
  }
  if (S.ruler.length === 2) {
    jobs.push(api("/api/measure", { positions, a: S.ruler[0], b: S.ruler[1] }).then((d) => { S.measure = d; }));
  }
  Promise.all(jobs).then(() => {
    status("");
    redraw();
    renderPanel();
  }, (e) => status(e.message)).finally(() => {
    inflight = false;
    if (dirty) refresh();
  });
}

// ------------------------------------------------------------------------------------------
// the panel
function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick") e.onclick = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}
/** ``box.replaceChildren(...nodes)``, but a child whose markup is unchanged stays where it is,
 *  untouched (its handlers too): a click pressed on a button just before the panel is drawn again
 *  and released after it lands on the same button in the page, so it is not lost. */
function swapChildren(box, nodes) {
  const now = [...box.childNodes];
  const fresh = nodes.map((n) => (typeof n === "string" ? document.createTextNode(n) : n));
  if (now.length !== fresh.length) { box.replaceChildren(...fresh); return; }
  fresh.forEach((n, k) => {
    const o = now[k];
    const same = o.nodeType === n.nodeType && (o instanceof Element ? o.outerHTML === n.outerHTML : o.textContent === n.textContent);
    if (!same) o.replaceWith(n);
  });
}
const ruleSpan = (rule) => h("span", { class: "rule" }, `[${rule}]`);
const pct = (p) => (p <= 0 ? "0" : p >= 1 ? "100%" : p < 0.001 ? `${(100 * p).toPrecision(2)}%` : `${(100 * p).toFixed(1)}%`);

function renderPanel() {
  renderChecks();
  renderSelection();
  renderDeclare();
  renderFire();
  renderMove();
  renderDisengage();
  renderRuler();
}

function renderChecks() {
  const c = S.check;
  if (!c) return;
  const engaged = c.units.filter((u) => u.engaged_with.length).map((u) => `${u.id} ${L.engaged} ${u.engaged_with.join(", ")}`);
  $("#summary").replaceChildren(
    h("div", {}, `${count(c.summary.units, "units")}, ${count(c.summary.bases, "bases")}: `,
      c.summary.ok ? h("span", { class: "ok" }, L.ok) : h("span", { class: "bad" }, count(c.summary.problems, "problems"))),
    ...engaged.map((t) => h("div", {}, t)),
  );
  const list = (ul, items) => $(ul).replaceChildren(...(items.length ? items : [h("li", {}, L.none)]));
  list("#problems", c.problems.map((p) => h("li", { "data-rule": p.rule }, ruleSpan(p.rule), " ", p.message)));
  list("#intrusions", c.zone_intrusions.map((z) => h("li", {
    "data-base": z.base, "data-zone-of": z.zone_of, "data-distance": z.distance,
  }, ruleSpan("1.4"), ` ${z.base} ${L.zoneOf} ${z.zone_of} (${z.distance.toFixed(2)} cm${z.across ? ", " + z.across : ""})`)));
  list("#contacts", c.contacts.filter((x) => x.length >= 0.005).map((x) => h("li", {}, `${x.a} — ${x.b}: ${x.length.toFixed(2)} cm`)));
}

function unitDoc(uid) { return S.doc.units.find((u) => u.id === uid); }

function renderSelection() {
  const body = $("#sel-body");
  if (!S.selected) { body.replaceChildren(h("div", { class: "help" }, L.nothingSelected)); return; }
  const u = unitDoc(S.selected);
  const rep = S.check && S.check.units.find((x) => x.id === S.selected);
  const parts = [h("div", {}, h("b", {}, u.id), ` — ${u.name || ""} (${L.side} ${u.side}, ${L.kinds[u.kind] || u.kind}, ${stateName(u.state)})`)];
  const st = [`${L.strength} ${u.strength}`, `${L.lost} ${u.lost}`];
  if (u.pursuing) st.push(`${L.pursuing} ${u.pursuing}`);
  if (u.acted) st.push(`${L.acted}: ${actionName(u.acted)}`);
  if (u.declared && u.acted !== "declare") st.push(L.declaredFire);  // 4.12.5: kept into the opponent's turn
  if (u.stood) st.push(L.mayFireCharger);  // 4.12.6: stood without acting in its own movement phase
  parts.push(h("div", { id: "unit-state", "data-state": u.state, "data-lost": String(u.lost), "data-acted": u.acted || "",
    "data-declared": String(!!u.declared), "data-stood": String(!!u.stood) }, st.join(" · ")));
  if (rep && !rep.coherent) parts.push(h("div", { class: "bad" }, `${L.notCoherent} (1.3): ${rep.groups.map((g) => g.join(", ")).join(" | ")}`));
  if (rep && rep.engaged_with.length) parts.push(h("div", {}, `${L.engaged} ${rep.engaged_with.join(", ")} (5.1.2)`));
  if (engagedEnemies(S.selected).length) {
    parts.push(h("div", { class: "row" }, h("button", { id: "disengage-btn", onclick: () => openDisengage(S.selected) }, L.disengageOdds)));
  }
  const t = S.targets;
  if (t && t.targets) {
    parts.push(h("h3", {}, L.targets));
    parts.push(h("ul", { id: "targets" }, ...(t.targets.length ? t.targets.map((r) => h("li", {
      class: `pick ${r.unit === S.target ? "on" : ""}`, "data-target": r.unit, onclick: () => pickTarget(r.unit),
    }, h("b", {}, r.unit), ` ${L.expected} ${r.expected.toFixed(3)}, ${L.repulsePanic} ${pct(r.repulsed_or_panic)}`))
      : [h("li", {}, L.none)])));
    const open = t.cannot.some((r) => r.unit === S.target);
    parts.push(h("details", open ? { id: "cannot-box", open: "" } : { id: "cannot-box" },
      h("summary", {}, `${L.cannot} (${t.cannot.length})`), h("ul", { id: "cannot" }, ...t.cannot.map((r) => h("li", {
      class: `pick ${r.unit === S.target ? "on" : ""}`, "data-target": r.unit, onclick: () => pickTarget(r.unit),
    }, h("b", {}, r.unit), " ", ruleSpan(r.reason.rule), ` ${r.reason.message}`)))));
  }
  if (S.target) {
    parts.push(h("div", { class: "row" },
      h("button", { id: "reach-btn", onclick: doReach }, L.reach),
      h("button", { id: "melee-btn", onclick: doMelee }, L.meleeOdds)));
    if (S.reachDoc) {
      const r = S.reachDoc;
      parts.push(h("div", { id: "reach-answer" }, h("span", { class: r.reachable ? "ok" : "bad" }, `${r.unit} ${r.reachable ? L.reachable : L.unreachable} ${r.target}`),
        r.length !== null && r.length !== undefined ? ` — ${L.path} ${r.length.toFixed(2)} ${L.of} ${r.allowed} cm (${r.base})` : ` (${L.of} ${r.allowed} cm)`));
    }
  }
  swapChildren(body, parts);
}

// 4.12.2-4.12.5: declared fire — declared in the unit's own movement phase (its action), fired in
// the opponent's movement phase at the target where it stands
function mayDeclare(u) {
  const t = S.doc.turn;
  return !!(u && t && t.side === u.side && t.phase === "movement" && !u.acted && !u.declared);
}

function firesDeclared(uid) {
  const u = unitDoc(uid), t = S.doc.turn;
  return !!(u && u.declared && t && t.side !== u.side && t.phase === "movement");
}

// 4.12.6: the fire at the first unit charging it, in the opponent's turn, by a unit that stood
function firesCharged(uid) {
  const u = unitDoc(uid), t = S.doc.turn;
  return !!(u && u.stood && !u.declared && t && t.side !== u.side && t.phase === "movement");
}

/** The fire in the opponent's turn the selected unit has (4.12): "declared", "charged" or "". */
function reactionOf(uid) { return firesDeclared(uid) ? "declared" : firesCharged(uid) ? "charged" : ""; }

/** 4.12.3: the target dragged (Move mode) to the point of its move where it is fired at. */
function placedAt() {
  const p = S.fireAt;
  return !!(p && p.shooter === S.selected && p.target === S.target && S.mode === "move" && S.before &&
    S.pos[p.target] && !samePoses(S.pos[p.target], S.before[p.target]));
}

function fireBody(positions) {
  const body = { positions, shooter: S.selected, target: S.target };
  const kind = reactionOf(S.selected);
  if (kind) body[kind] = true;
  if (kind && placedAt()) {  // the table before the drag, the target placed where it is fired at
    body.positions = patch(S.before);
    body.target_at = S.pos[S.target];
  }
  return body;
}

function startFireAt() {
  const shooter = S.selected, target = S.target;
  if (!shooter || !target) return;
  setMode("move");
  S.selected = shooter; S.target = target;
  S.fireAt = { shooter, target };
  startMove(target);
  redraw(); renderPanel(); refresh();
}

/** The target back where it stands, Select mode again. */
function endFireAt() {
  const p = S.fireAt;
  if (p && S.before && S.before[p.target]) S.pos[p.target] = structuredClone(S.before[p.target]);
  S.fireAt = null;
  if (S.mode === "move") setMode("select"); else { redraw(); renderPanel(); }
  refresh();
}

function renderDeclare() {
  const u = S.selected && unitDoc(S.selected);
  $("#declare-row").hidden = !mayDeclare(u);
}

function applyDeclare() {
  if (!S.selected) return;
  act("/api/apply-declare", { positions: patch(), shooter: S.selected }, "#declare-msg");
}

function renderFire() {
  const box = $("#firebox");
  const f = S.fire;
  box.hidden = !(S.selected && S.target && f);
  if (box.hidden) return;
  // 4.5.5, 4.12.4: a fire in the opponent's turn out of range is spent with no die
  const lost = !!(!f.legal && f.reaction && f.reason && ["4.5.1", "4.12.4"].includes(f.reason.rule));
  $("#fire-apply-box").hidden = !(f.legal || lost || said["#fire-msg"]);  // the last answer stays in view
  $("#fire-dice-box").hidden = !f.legal;
  $("#fire-lost-row").hidden = !lost;
  if (lost) $("#fire-lost").textContent = f.reaction.kind === "declared" ? L.fireLostDeclared : L.fireLostCharged;
  if (f.error) { $("#fire-body").replaceChildren(h("div", { class: "bad" }, f.error)); $("#chart-removed").replaceChildren(); $("#chart-morale").replaceChildren(); return; }
  const head = h("div", { id: "fire-verdict", "data-legal": String(f.legal) },
    `${f.shooter} → ${f.target}${f.ammunition ? " (" + f.ammunition + ")" : ""}: `,
    h("span", { class: f.legal ? "ok" : "bad" }, f.legal ? L.canFire : L.cannotFire));
  const parts = [head];
  if (f.reaction) parts.push(...reactionLines(f));
  if (f.reason) parts.push(h("div", { id: "fire-reason", "data-rule": f.reason.rule }, ruleSpan(f.reason.rule), ` ${f.reason.message}`));
  if (f.legal) {
    parts.push(h("div", {}, `${L.expected} ${f.expected.toFixed(3)}; ` + f.volley.map((v) => `${v.dice} ${L.d6} ≤${v.accuracy}`).join(" + ")));
    for (const n of f.notes) parts.push(h("div", { class: "help" }, n));
  }
  $("#fire-body").replaceChildren(...parts);
  if (f.legal) {
    barChart($("#chart-removed"), L.removed, f.removed_pmf.map((_, k) => String(k)), f.removed_pmf, "removed");
    const keys = Object.keys(f.morale);
    barChart($("#chart-morale"), L.morale, keys.map((k) => L.outcome[k] || k), keys.map((k) => f.morale[k]), "morale", keys);
  } else {
    $("#chart-removed").replaceChildren();
    $("#chart-morale").replaceChildren();
  }
}

/** 4.12: the fire in the opponent's turn — its kind, where the target is fired at, the button that
places it there (Move mode) or puts it back. */
function reactionLines(f) {
  const out = [];
  if (f.reaction.kind === "declared") {
    out.push(h("div", { id: "fire-declared", class: "help", "data-rule": f.reaction.rule }, f.reaction.rule === "4.12.3" ? L.declaredAt : L.declaredNow));
  } else if (f.reaction.kind === "charged") {
    out.push(h("div", { id: "fire-charged", class: "help", "data-rule": f.reaction.rule }, L.chargedNow));
  }
  if (f.target_at && placedAt()) {
    out.push(h("div", { id: "fire-target-at" }, `${L.firedAt} `,
      f.target_at.map((b) => `${b.base} (${b.x.toFixed(2)}, ${b.y.toFixed(2)}, ${Math.round(b.facing)}°)`).join("; ")));
  }
  if (S.fireAt && S.fireAt.target === S.target && S.mode === "move") {
    out.push(h("div", { class: "row" }, h("button", { id: "fire-stands", onclick: endFireAt }, L.fireWhereStands)));
  } else {
    out.push(h("div", { class: "row" }, h("button", { id: "fire-place", onclick: startFireAt }, L.placeTarget)),
      h("div", { class: "help" }, L.placeTargetHint));
  }
  return out;
}

function barChart(container, title, labels, values, name, keys) {
  const w = 330, hgt = 92, top = 26, bottom = 16, n = values.length;
  const bw = (w - 8) / Math.max(n, 1);
  const svg = el("svg", { width: w, height: hgt, class: "chart", "data-chart": name });
  const t = el("text", { x: 4, y: 11, class: "title" }, svg);
  t.textContent = title;
  const max = Math.max(...values, 1e-9);
  values.forEach((v, i) => {
    const bh = (hgt - top - bottom) * v / max;
    const x = 4 + i * bw, y = hgt - bottom - bh;
    el("rect", { x: x + 1, y, width: bw - 2, height: bh, fill: "#3d5a80", "data-key": keys ? keys[i] : String(i), "data-p": String(v) }, svg);
    const pv = el("text", { x: x + bw / 2, y: y - 2, "text-anchor": "middle" }, svg);
    pv.textContent = pct(v);
    const lb = el("text", { x: x + bw / 2, y: hgt - 6, "text-anchor": "middle" }, svg);
    lb.textContent = labels[i];
  });
  container.replaceChildren(svg);
}

function renderMove() {
  const box = $("#movebox");
  box.hidden = S.mode !== "move";
  if (box.hidden) return;
  const m = S.moveReport;
  const body = $("#move-body");
  const as = moveAs();
  $("#move-charge-row").hidden = as !== "";
  $("#move-apply").hidden = as === "disengage";  // applied with its dice in the disengagement's box
  if (!S.moving) { $("#move-as-l").hidden = true; body.replaceChildren(h("div", { class: "help" }, L.nothingSelected)); return; }
  if (as === "disengage") { body.replaceChildren(h("div", { class: "help", id: "move-hint" }, `${S.moving}: ${L.disengageDrag}`)); return; }
  if (S.fireAt && S.fireAt.target === S.moving) {  // 4.12.3, 4.12.6: placed where it is fired at, not a move
    $("#move-charge-row").hidden = true; $("#move-apply").hidden = true; $("#move-as-l").hidden = true;
    body.replaceChildren(h("div", { class: "help", id: "move-hint", "data-fire-at": S.fireAt.shooter }, `${S.moving} (${S.fireAt.shooter}): ${L.placingHint}`));
    return;
  }
  const hint = as.startsWith("push:") ? L.pushUpHint : L.moveHint;
  if (!m) { body.replaceChildren(h("div", { class: "help", id: "move-hint" }, `${S.moving}: ${hint}`)); return; }
  if (m.error) {  // the move refused (3.1.4: off the table) or not understood: no verdict stays behind
    body.replaceChildren(h("div", { id: "move-verdict", "data-legal": "false", "data-rule": m.rule || "" },
      `${S.moving}: `, h("span", { class: "bad" }, L.illegal), m.rule ? h("span", {}, " ", ruleSpan(m.rule)) : null, ` ${m.error}`));
    return;
  }
  const parts = [h("div", { id: "move-verdict", "data-legal": String(m.legal), "data-rule": m.rule || "" },
    `${S.moving}: `, h("span", { class: m.legal ? "ok" : "bad" }, m.legal ? L.legal : L.illegal),
    m.rule ? h("span", {}, " ", ruleSpan(m.rule)) : null, ` ${m.message}`)];
  const rows = m.bases.map((b) => h("tr", {}, h("td", {}, b.base), h("td", {}, b.distance.toFixed(2)), h("td", {}, String(b.allowed)),
    h("td", {}, b.surcharges.map((s) => `+${s.cm.toFixed(2)} ${s.rule}`).join(" "))));
  parts.push(h("table", { class: "small" }, h("tr", {}, ...L.moveCols.map((c) => h("th", {}, c))), ...rows));
  const acted = unitDoc(S.moving).acted;
  if (acted && !as.startsWith("push:")) parts.push(h("div", { class: "bad", id: "move-acted" }, ruleSpan("2.3"), ` ${L.acted}: ${actionName(acted)}`));
  if (m.violations.length > 1) parts.push(h("ul", {}, ...m.violations.map((v) => h("li", {}, ruleSpan(v.rule), ` ${v.message}`))));
  body.replaceChildren(...parts);
}

function renderDisengage() {
  const box = $("#disengagebox");
  box.hidden = !S.disengage && !$("#disengage-msg").childElementCount;
  const d = S.disengageDoc, body = $("#disengage-body");
  $("#disengage-apply-box").hidden = !(S.disengage && d && d.legal);
  if (!S.disengage || !d) { body.replaceChildren(); return; }
  if (d.error) {  // may not disengage (5.8.1: not engaged; 6.1: panicking or pursuing) or a refused drag
    body.replaceChildren(h("div", { id: "disengage-answer", class: "bad", "data-rule": d.rule || "" },
      `${S.disengage}: ${L.refused}: `, d.rule ? ruleSpan(d.rule) : null, ` ${d.error}`));
    return;
  }
  const test = d.automatic ? [h("span", { class: "ok" }, L.automatic)]
    : [`${L.moraleTest} ${L.d6} ≤ ${d.target}: ${L.passes} `, h("b", {}, pct(d.pass_probability)),
      ` · ${L.fails} ${pct(1 - d.pass_probability)}: ${L.panicsFlees}`];
  const parts = [h("div", { id: "disengage-answer", "data-pass": d.pass_chance },
    h("b", {}, d.unit), ` ${L.from} ${d.enemies.join(", ")} — `, ...test)];
  parts.push(h("div", {}, `${L.pursuitTests}:`), h("ul", { id: "disengage-pursuers" }, ...d.pursuers.map((p) => h("li", {
    "data-unit": p.unit, "data-branch": p.branch, "data-pursuit": p.pursuit_chance,
  }, h("b", {}, p.unit), ": ", p.branch === "test" ? `${L.pursuitTest} ${L.d6} ≤ ${p.target}, ${L.pursues} ${pct(p.pursuit_probability)} `
    : `${L.noPursuit[p.branch] || p.branch} `, ruleSpan(p.rule)))));
  parts.push(h("div", { id: "disengage-verdict", "data-legal": String(d.legal), "data-rule": d.rule || "", "data-found": String(d.found) },
    `${L.moveAway} (${d.found ? L.found : L.dragged}): `, h("span", { class: d.legal ? "ok" : "bad" }, d.legal ? L.legalN : L.illegalN),
    d.rule ? h("span", {}, " ", ruleSpan(d.rule)) : null, ` ${d.message}`));
  if (d.move) {
    const rows = d.move.bases.map((b) => h("tr", {}, h("td", {}, b.base), h("td", {}, b.distance.toFixed(2)), h("td", {}, String(b.allowed)),
      h("td", {}, b.surcharges.map((s) => `+${s.cm.toFixed(2)} ${s.rule}`).join(" "))));
    parts.push(h("table", { class: "small" }, h("tr", {}, ...L.moveCols.map((c) => h("th", {}, c))), ...rows));
  }
  if (d.found) parts.push(h("div", { class: "help" }, L.disengageHint));
  body.replaceChildren(...parts);
}

function renderRuler() {
  const box = $("#rulerbox");
  box.hidden = S.mode !== "ruler";
  if (box.hidden) return;
  const m = S.measure;
  $("#ruler-body").replaceChildren(m && S.ruler.length === 2
    ? h("div", { id: "ruler-answer", "data-distance": String(m.distance) }, `${m.a} — ${m.b}: `, h("b", {}, `${m.distance.toFixed(2)} cm`),
      ` (${m.bases[0]} – ${m.bases[1]})${m.touching ? ` ${L.touching}` : ""}`)
    : h("div", { class: "help" }, L.rulerHint + (S.ruler.length ? ` ${S.ruler[0]} …` : "")));
}

// ------------------------------------------------------------------------------------------
// actions
function selectUnit(uid) {
  if (uid !== S.selected) unsay("#declare-msg");  // the declaration's answer is the selected unit's
  S.selected = uid; S.target = null; S.fire = null; S.targets = null; S.reachDoc = null; S.meleeDoc = null;
  S.meleeMore = [];
  $("#meleebox").hidden = true;
  if (S.disengage !== uid) closeDisengage();
  redraw(); renderPanel(); refresh();
}

function pickTarget(uid) {
  S.target = uid; S.fire = null; S.reachDoc = null; S.meleeDoc = null;
  S.meleeMore = [];
  $("#meleebox").hidden = true;
  redraw(); refresh();
}

async function doReach() {
  try {
    S.reachDoc = await api("/api/reach", { positions: patch(), unit: S.selected, target: S.target });
    redraw(); renderSelection();
  } catch (e) { status(e.message); }
}

/** The melee the panel asks about: the selected unit and its target, with the units added (5.10). */
function meleeUnits() {
  const side = unitDoc(S.selected).side, more = S.meleeMore.filter((u) => unitDoc(u));
  return {
    attackers: [S.selected, ...more.filter((u) => unitDoc(u).side === side)],
    defenders: [S.target, ...more.filter((u) => unitDoc(u).side !== side)],
  };
}

const meleeCombined = () => S.meleeMore.length > 0;
const fill = (text, vars) => text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? String(vars[k]) : `{${k}}`));

/** 5.10: a unit added to the melee, or taken out of it (the "+" control, or Shift-click on the table). */
function toggleMeleeUnit(uid) {
  if (!uid || uid === S.selected || uid === S.target) return;
  S.meleeMore = S.meleeMore.includes(uid) ? S.meleeMore.filter((u) => u !== uid) : [...S.meleeMore, uid];
  unsay("#melee-msg"); unsay("#melee-push");
  redraw();
  doMelee();
}

/** The units that may join: not in the melee yet, touching an enemy that is (``check``'s contacts, 5.1.2). */
function meleeCandidates(units) {
  const inMelee = new Set([...units.attackers, ...units.defenders]);
  const touching = (uid) => {
    const rep = S.check && S.check.units.find((x) => x.id === uid);
    return rep ? rep.engaged_with : [];
  };
  return S.doc.units.filter((u) => !inMelee.has(u.id) && touching(u.id).some((e) => inMelee.has(e))).map((u) => u.id);
}

function renderMeleeUnits() {
  const units = meleeUnits();
  const chip = (uid) => h("span", { class: "chip", "data-melee-unit": uid }, uid,
    S.meleeMore.includes(uid) ? h("button", { title: L.dropFromMelee, "data-drop": uid, onclick: () => toggleMeleeUnit(uid) }, "×") : null);
  const cand = meleeCandidates(units);
  const pick = h("select", { id: "melee-add" }, ...cand.map((u) => h("option", { value: u }, `${u} (${L.meleeSides[unitDoc(u).side === unitDoc(S.selected).side ? "attacker" : "defender"]})`)));
  const add = h("button", { id: "melee-add-btn", onclick: () => toggleMeleeUnit($("#melee-add").value) }, L.addToMelee);
  if (!cand.length) { pick.disabled = true; add.disabled = true; }
  $("#melee-units").replaceChildren(
    h("div", {}, h("b", {}, L.attackersOf), " ", ...units.attackers.map(chip), " ", h("b", {}, L.defendersOf), " ", ...units.defenders.map(chip)),
    h("div", { class: "row" }, cand.length ? pick : null, add, h("span", { class: "help" }, cand.length ? L.addHint : L.noneToAdd)));
  $("#melee-declare-l").hidden = !(meleeCombined() && $("#melee-continuing").checked);
}

function meleeFlags() {
  const continuing = $("#melee-continuing").checked;
  return { continuing, declare_defence: continuing && meleeCombined() && $("#melee-declare").checked };
}

async function doMelee() {
  if (meleeCombined()) { doCombinedMelee(); return; }
  try {
    const body = { positions: patch(), attacker: S.selected, defender: S.target };
    if (meleeFlags().continuing) body.continuing = true;
    const m = await api("/api/melee", body);
    S.meleeDoc = m;
    const box = $("#meleebox");
    box.hidden = false;
    renderMeleeUnits();
    $("#melee-order-box").hidden = true;
    if (m.error) {
      $("#melee-body").replaceChildren(h("div", { id: "melee-answer", class: "bad" }, noMeleeLabel(m), ruleSpan(m.rule), ` ${m.error}`));
      $("#chart-melee").replaceChildren();
      return;
    }
    $("#melee-body").replaceChildren(h("div", { id: "melee-answer" }, `${m.attacker} → ${m.defender}: ` +
      m.groups.map((g) => `${L.meleeSides[g.side] || g.side} ${g.dice} ${L.d6}, UW ${g.uw}${groupTerrain(g, m.groups)}`).join(", ")),
    h("ul", { id: "melee-outcomes" }, ...m.outcomes.slice(0, 5).map((o) => h("li", {}, `${pct(o.p)} ${outcomeName(o.attacker)} / ${outcomeName(o.defender)}`))));
    const a = h("div"), d = h("div");
    barChart(a, L.attackerRemoved, m.attacker_removed_pmf.map((_, k) => String(k)), m.attacker_removed_pmf, "melee-attacker");
    barChart(d, L.defenderRemoved, m.defender_removed_pmf.map((_, k) => String(k)), m.defender_removed_pmf, "melee-defender");
    $("#chart-melee").replaceChildren(a, d);
  } catch (e) { status(e.message); }
}

/** "no melee:" before a refusal, except where its reason already says so (5.3: no figure in contact). */
function noMeleeLabel(m) {
  return m.rule === "5.3" ? "" : `${L.noMelee}: `;
}

/** 5.7, 5.7.2: a dice group's terrain: the W bonus it strikes, and its fight where the melee is split. */
function groupTerrain(g, groups) {
  const split = groups.some((x) => x.fight > 1);
  return (g.target_bonus ? `, W+${g.target_bonus}` : "") + (split ? `, ${L.fight} ${g.fight}` : "");
}

// 5.10: the combined melee — every unit's losses and outcome, the dice groups, the dice's order
async function doCombinedMelee() {
  const units = meleeUnits();
  try {
    const m = await api("/api/melee-combined", { positions: patch(), ...units, ...meleeFlags() });
    S.meleeDoc = m;
    $("#meleebox").hidden = false;
    renderMeleeUnits();
    if (m.error) {
      $("#melee-body").replaceChildren(h("div", { id: "melee-answer", class: "bad", "data-combined": "true", "data-rule": m.rule },
        noMeleeLabel(m), ruleSpan(m.rule), ` ${m.error}`));
      $("#chart-melee").replaceChildren();
      $("#melee-order-box").hidden = true;
      return;
    }
    const pairwise = !m.first_strike && m.first_strike_units.length > 0;  // 7.7 pair by pair
    const first = m.first_strike ? ` · ${L.meleeSides[m.first_strike]} ${L.strikesFirst}`
      : pairwise ? ` · ${m.first_strike_units.join(", ")} ${L.strikesFirst}` : "";
    const firstMark = (g) => (pairwise && g.first ? ` — ${L.strikesFirst}` : "");
    const holds = new Set(m.units.filter((u) => u.holds_terrain).map((u) => u.unit));  // 5.7.3
    const unitOutcome = (u, o) => (o === "engaged" && holds.has(u) ? L.standsNotEngaged : outcomeName(o));
    const bonus = (g) => groupTerrain(g, m.groups);
    $("#melee-body").replaceChildren(
      h("div", { id: "melee-answer", "data-combined": "true" }, h("b", {}, L.combined), `: ${m.attackers.join(", ")} → ${m.defenders.join(", ")}${first}`),
      h("ul", { id: "melee-groups" }, ...m.groups.map((g) => h("li", { "data-side": g.side, "data-target": g.target, "data-first": String(g.first) },
        `${L.meleeSides[g.side] || g.side} → ${g.target}: ${g.dice} ${L.d6}, UW ${g.uw}${bonus(g)} (${g.figures.join(", ")})${firstMark(g)}`))),
      h("ul", { id: "melee-unit-odds" }, ...m.units.map((u) => h("li", { "data-unit": u.unit, "data-side": u.side },
        h("b", {}, u.unit), ` (${L.meleeSides[u.side] || u.side}): ${L.expectedLoss} ${u.expected_removed.toFixed(2)} — `,
        u.outcomes.map((o) => `${unitOutcome(u.unit, o.outcome)} ${pct(o.p)}`).join(", ")))),
      h("details", { id: "melee-joint" }, h("summary", {}, L.jointOutcomes), h("ul", {}, ...m.joint_outcomes.slice(0, 8).map((j) =>
        h("li", {}, `${pct(j.p)} ` + Object.entries(j.outcomes).map(([u, o]) => `${u} ${unitOutcome(u, o)}`).join(", "))))));
    const charts = m.units.map((u) => {
      const div = h("div");
      barChart(div, fill(L.loses, { u: u.unit }), u.removed_pmf.map((_, k) => String(k)), u.removed_pmf, `melee-unit-${u.unit}`);
      return div;
    });
    $("#chart-melee").replaceChildren(...charts);
    renderMeleeOrder(m.dice_order);
  } catch (e) { status(e.message); }
}

/** The order the combined melee's dice are typed in (the server's ``dice_order``, worded here). */
function renderMeleeOrder(steps) {
  const side = (s) => L.meleeSides[s] || s;
  $("#melee-order").replaceChildren(...steps.map((st) => {
    let text = "";
    if (st.step === "strike_back") text = fill(L.orderStrikeBack, { u: st.unit });
    else if (st.step === "group") {
      text = fill(L.orderGroup, { side: side(st.side), target: st.target, n: st.dice, uw: st.uw, figures: st.figures.join(", ") });
      if (st.fight !== undefined) text += ` (${L.fight} ${st.fight})`;
      if (st.first) text += ` — ${L.strikesFirst}`;
      if (st.second) text += ` — ${L.withLeft}`;
      if (st.unless_gone) text += ` (${fill(L.unlessGone, { u: st.target })})`;
    } else if (st.step === "tests") text = fill(L.orderTests, { first: st.first.join(", "), then: st.then.join(", ") });
    else if (st.step === "after") text = L.orderAfter;
    return h("li", { "data-step": st.step }, text);
  }));
  $("#melee-order-box").hidden = false;
}

/** 6.7.1, 6.7.4, 6.7.5 — a pursuit: whom, its shortest way into contact (as the move takes it;
 * 3.2, how much of it the terrain costs), the chance that it reaches, and the enemy units met on
 * its way with the chance to get that far. */
function pursuitText(p) {
  if (!p.target) return L.pursuit;
  let way = p.way_cm == null ? L.noWay : fill(L.toContact, { cm: p.way_cm.toFixed(2) });
  if (p.way_cm != null && p.terrain_cm) way += ` (${fill(L.ofTerrain, { cm: p.terrain_cm.toFixed(2) })})`;
  const roll = p.pmf.length ? `2${L.d6} × ${p.pmf[0].cm / 2} cm` : "";
  let text = `${fill(L.pursuitOf, { t: p.target })}: ${way}${roll ? `, ${roll}` : ""}; ${L.reachesIt} ${pct(p.reach_chance)}`;
  if (p.on_the_way.length) {
    text += `; ${L.onTheWay}: ` + p.on_the_way.map((w) => `${fill(L.metAfter, { u: w.unit, cm: w.from_cm.toFixed(1) })} ${pct(w.chance)}`).join(", ");
  }
  return text;
}

async function doMorale(side) {
  try {
    const r = await api("/api/morale", { positions: patch(), side });
    const items = r.units.map((u) => {
      const bits = [h("b", {}, u.id), ` ${stateName(u.state)}: `];
      bits.push(u.may_reorganise ? `${L.reorganise} ${pct(u.reorganise_chance)}` : `${L.reorganise}: ${L.mayNot} (${u.reason})`);
      if (u.pursuit) bits.push(`; ${pursuitText(u.pursuit)}`);
      else if (u.flight_chance !== undefined) {
        bits.push(`; ${L.flight} ${pct(u.flight_chance)}, ${L.offTable} ${pct(u.off_table_chance)}, ${L.surrender} ${pct(u.surrender_chance || 0)}`);
      }
      return h("li", { "data-unit": u.id }, ...bits);
    });
    S.moraleSide = side;
    $("#morale-apply-box").hidden = false;
    $("#morale-apply").textContent = `${L.applyPhase} (${L.moraleOf} ${side})`;
    const enemy = (r.enemy_pursuits || []).map((p) => h("li", { "data-unit": p.id }, h("b", {}, p.id), ` ${pursuitText(p)}`));
    $("#morale-body").replaceChildren(h("div", {}, `${L.moraleOf} ${side}`), h("ul", { id: "morale-list" }, ...(items.length ? items : [h("li", {}, L.nothingToDo)])),
      ...(enemy.length ? [h("div", {}, L.enemyPursuits), h("ul", { id: "morale-enemy-pursuits" }, ...enemy)] : []));
  } catch (e) { status(e.message); }
}

function setMode(mode) {
  if (S.fireAt && S.before && S.before[S.fireAt.target]) S.pos[S.fireAt.target] = structuredClone(S.before[S.fireAt.target]);
  S.fireAt = null;  // 4.12.3: the target placed where it is fired at goes back where it stands
  S.mode = mode;
  document.querySelectorAll("#modes button").forEach((b) => b.classList.toggle("on", b.dataset.mode === mode));
  S.before = mode === "move" ? structuredClone(S.pos) : null;
  S.moving = null; S.moveReport = null; S.ruler = []; S.measure = null;
  S.draft = []; if (mode !== "terrain") S.terrainSel = null;
  $("#placebox").hidden = mode !== "place";
  $("#terrainbox").hidden = mode !== "terrain";
  if (mode === "place" && !S.armies) loadArmies();
  drawTerrain(); redraw(); renderPanel(); drawDraft(); renderTerrainBox();
}

function turn(sign) {
  const uid = S.mode === "move" && S.moving ? S.moving : S.selected;
  if (!uid) return;
  if (S.mode === "move") startMove(uid);
  const step = Number($("#snap-angle").value) * sign;
  const poses = S.pos[uid];
  const pivot = pivotOf(uid, $("#pivot").value);
  const t = step * Math.PI / 180, c = Math.cos(t), s = Math.sin(t);
  S.pos[uid] = poses.map(([x, y, f]) => {
    const dx = x - pivot[0], dy = y - pivot[1];
    return [r2(pivot[0] + c * dx - s * dy), r2(pivot[1] + s * dx + c * dy), norm(f + step)];
  });
  redraw(); refresh();
}

function pivotOf(uid, which) {
  const poses = S.pos[uid];
  if (which === "centre") {
    return [poses.reduce((a, p) => a + p[0], 0) / poses.length, poses.reduce((a, p) => a + p[1], 0) / poses.length];
  }
  // a corner of the rectangle round the unit, in the frame of its first base's facing
  const t = poses[0][2] * Math.PI / 180, fx = Math.cos(t), fy = Math.sin(t), rx = Math.sin(t), ry = -Math.cos(t);
  const all = poses.flatMap((_, i) => baseCorners(uid, i));
  const fwd = all.map((p) => p[0] * fx + p[1] * fy), right = all.map((p) => p[0] * rx + p[1] * ry);
  const F = which.startsWith("front") ? Math.max(...fwd) : Math.min(...fwd);
  const R = which.endsWith("left") ? Math.min(...right) : Math.max(...right);
  return [F * fx + R * rx, F * fy + R * ry];
}

function startMove(uid) {
  if (S.fireAt && S.fireAt.target !== uid) S.fireAt = null;  // another unit moved: not the placed target
  // a move not applied is put back when another unit is moved (moves are applied one by one)
  if (S.moving && S.moving !== uid) S.pos[S.moving] = structuredClone(S.before[S.moving]);
  if (S.moving !== uid) fillMoveAs(uid);
  S.moving = uid;
}

// ------------------------------------------------------------------------------------------
// pointer: pan, pinch, drag
const pointers = new Map();
let drag = null, pinch = null;

function onDown(ev) {
  const svg = $("#table");
  try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* a pointer the browser no longer tracks */ }
  pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
  if (pointers.size === 2) {
    drag = null;
    const [a, b] = [...pointers.values()];
    pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), view: { ...S.view }, mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
    return;
  }
  const corner = ev.target.closest ? ev.target.closest("[data-corner]") : null;
  if (corner && S.mode === "terrain") {
    const t = S.doc.terrain.find((f) => f.id === S.terrainSel);
    drag = { kind: "corner", k: Number(corner.dataset.corner), pts: structuredClone(t.polygon || t.line), linear: !t.polygon, moved: false };
    return;
  }
  const target = ev.target.closest && S.mode !== "place" && S.mode !== "terrain" ? ev.target.closest("[data-base]") : null;
  const start = toTable(ev.clientX, ev.clientY);
  if (target) {
    const uid = target.dataset.unit, index = Number(target.dataset.index);
    if (S.mode === "move") fillCharge(uid);
    drag = { kind: "base", uid, index, single: ev.shiftKey || $("#single-base").checked, start, from: structuredClone(S.pos[uid]), moved: false, client: [ev.clientX, ev.clientY] };
  } else {
    drag = { kind: "pan", start: [ev.clientX, ev.clientY], view: { ...S.view }, moved: false, hit: ev.target };
    svg.classList.add("panning");
  }
}

function onMove(ev) {
  if (S.mode === "place" && !pointers.size) { drawPlaceGhost(toTable(ev.clientX, ev.clientY)); return; }
  if (!pointers.has(ev.pointerId)) return;
  pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
  if (pinch && pointers.size === 2) {
    const [a, b] = [...pointers.values()];
    const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
    zoomAt(pinch.mid[0], pinch.mid[1], d / pinch.d, pinch.view);
    return;
  }
  if (!drag) return;
  if (drag.kind === "corner") {
    drag.moved = true;
    drag.pts[drag.k] = snapPoint(toTable(ev.clientX, ev.clientY));
    drawDraft(drag);
    return;
  }
  if (drag.kind === "pan") {
    const dx = ev.clientX - drag.start[0], dy = ev.clientY - drag.start[1];
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    S.view = { ...drag.view, tx: drag.view.tx + dx, ty: drag.view.ty + dy };
    applyView();
    return;
  }
  if (!drag.moved && Math.hypot(ev.clientX - drag.client[0], ev.clientY - drag.client[1]) < 4) return;
  if (S.mode === "ruler") return;
  if (!drag.moved) {
    drag.moved = true;
    if (S.mode === "move") { startMove(drag.uid); drag.from = structuredClone(S.pos[drag.uid]); unsay("#move-msg"); }
  }
  const now = toTable(ev.clientX, ev.clientY);
  const grid = Number($("#snap-grid").value);
  let dx = now[0] - drag.start[0], dy = now[1] - drag.start[1];
  if (grid > 0) { dx = Math.round(dx / grid) * grid; dy = Math.round(dy / grid) * grid; }
  S.pos[drag.uid] = drag.from.map((p, i) => (drag.single && i !== drag.index ? p : [r2(p[0] + dx), r2(p[1] + dy), p[2]]));
  drawBases();
  drawGhosts();
  refresh();
}

function onUp(ev) {
  pointers.delete(ev.pointerId);
  $("#table").classList.remove("panning");
  if (pinch) { if (pointers.size < 2) pinch = null; drag = null; return; }
  const d = drag;
  drag = null;
  if (!d) return;
  if (d.kind === "corner") { if (d.moved) editTerrain(d); return; }
  if (d.kind === "pan" && !d.moved && S.mode === "place") { doPlace(toTable(ev.clientX, ev.clientY)); return; }
  if (d.kind === "pan" && !d.moved && S.mode === "terrain") { terrainClick(ev, d.hit); return; }
  if (d.kind === "pan") {
    if (!d.moved && S.mode === "select") { S.selected = null; S.target = null; S.meleeMore = []; S.fire = null; S.targets = null; S.reachDoc = null; redraw(); renderPanel(); }
    return;
  }
  if (d.moved) { refresh(); return; }
  // a click on a base
  const baseId = `${d.uid}/${d.index}`;
  if (S.mode === "ruler") {
    const id = $("#ruler-of").value === "base" || ev.shiftKey ? baseId : d.uid;
    S.ruler = S.ruler.length === 1 ? [S.ruler[0], id] : [id];
    S.measure = null;
    renderRuler(); drawMarks();
    if (S.ruler.length === 2) refresh();
    return;
  }
  if (S.mode === "move") {
    const placing = S.fireAt && S.fireAt.target === d.uid;  // the shooter stays selected
    startMove(d.uid);
    if (!placing) S.selected = d.uid;
    redraw(); renderPanel(); refresh(); return;
  }
  const side = unitDoc(d.uid).side;
  if (ev.shiftKey && S.selected && S.target && d.uid !== S.selected && d.uid !== S.target) { toggleMeleeUnit(d.uid); return; }  // 5.10
  if (S.selected && d.uid !== S.selected && side !== unitDoc(S.selected).side) pickTarget(d.uid);
  else selectUnit(d.uid);
}

function zoomAt(cx, cy, factor, base) {
  const r = $("#table").getBoundingClientRect();
  const v = base || S.view;
  const k = Math.min(Math.max(v.k * factor, 0.5), 200);
  const px = cx - r.left, py = cy - r.top;
  S.view = { k, tx: px - (px - v.tx) * k / v.k, ty: py - (py - v.ty) * k / v.k };
  applyView();
}

function onWheel(ev) {
  ev.preventDefault();
  if (ev.altKey) { turn(ev.deltaY < 0 ? 1 : -1); return; }
  zoomAt(ev.clientX, ev.clientY, Math.exp(-ev.deltaY * 0.0015));
}

// ------------------------------------------------------------------------------------------
// the game: actions applied by the server (szwadron.game, as the command line's --apply), undo
// the messages of the actions, each kept as the function that writes it: a change of language
// writes them again in the new one (the server's own words, a refusal's, stay as they came)
const said = {};

function say(sel, ok, ...children) {
  const build = typeof children[0] === "function" ? children[0] : () => children;
  said[sel] = () => $(sel).replaceChildren(h("div", { class: ok ? "ok-msg" : "bad", id: ok ? "action-answer" : "action-error" }, ...build()));
  said[sel]();
}

function refusal(sel, e) {
  const bits = e.rule ? [ruleSpan(e.rule), " "] : [];
  said[sel] = () => $(sel).replaceChildren(h("div", { class: "bad", id: "action-error", "data-rule": e.rule || "" }, `${L.refused}: `, ...bits, e.message));
  said[sel]();
}

function unsay(sel) { delete said[sel]; $(sel).replaceChildren(); }

function fileMsg(ok, text) {
  said["#file-msg"] = () => $("#file-msg").replaceChildren(h("span", { class: ok ? "ok" : "bad", id: "save-answer" }, text()));
  said["#file-msg"]();
}

function summary(a) {
  const r = a.ruling || {}, i = a.inputs || {};
  if (a.action === "move") return `${(i.units || []).join(", ")}: ${Math.max(0, ...Object.values(r.distances || {})).toFixed(2)} cm`;
  if (a.action === "declare") return i.shooter;
  if (a.action === "fire") {
    const how = i.declared ? ` (${L.declaredFire})` : i.charged ? ` (${L.chargedFire})` : "";
    if (r.lost) return `${i.shooter} → ${i.target}${how}: ${L.lostOut} (${(r.reason && r.reason.rule) || r.lost})`;
    return `${i.shooter} → ${i.target}${how}: ${r.damage} ${L.damage}, ${(r.removed || []).length} ${L.removed}, ${L.outcome[r.morale] || r.morale}`;
  }
  if (a.action === "melee" && i.attackers) {  // 5.10: what happened to every unit
    return `${i.attackers.join(", ")} × ${i.defenders.join(", ")}: ` + Object.entries(r.outcomes || {}).map(([u, o]) => {
      const gone = (r.removed || {})[u] || [];
      return `${u} ${outcomeName(o)}` + (gone.length ? ` (${L.lost}: ${gone.length}, ${gone.join(", ")})` : "");
    }).join("; ");
  }
  if (a.action === "melee") return `${i.attacker} × ${i.defender}: ${r.outcome ? `${outcomeName(r.outcome.attacker)} / ${outcomeName(r.outcome.defender)}` : ""}`;
  if (a.action === "morale") return `${L.moraleOf} ${r.side}`;
  if (a.action === "disengage") {
    return `${i.unit} ${L.from} ${(r.enemies || []).join(", ")}: ${r.passed ? L.disengaged : L.notDisengaged}` +
      ((r.pursuers || []).length ? `; ${L.pursuit}: ${r.pursuers.join(", ")}` : "");
  }
  if (a.action === "push_up") return `${i.unit} → ${i.enemy}: ${Math.max(0, ...Object.values(r.distances || {})).toFixed(2)} cm`;
  if (a.action === "turn") return `${L.round} ${r.turn.round}, ${L.side} ${r.turn.side}, ${L.phaseName[r.turn.phase] || r.turn.phase}`;
  return "";
}

async function act(path, body, sel) {
  unsay(sel);
  if (sel !== "#declare-msg") unsay("#declare-msg");  // said of the last action only
  try {
    const r = await api(path, body);
    reload(r.state);
    if (r.applied) {
      const a = r.applied;
      const notes = a.notes;  // the server's words, in the language of the request
      say(sel, true, () => [`${L.applied} (${actionName(a.action)}) `, h("b", {}, summary(a)), ...notes.map((n) => h("div", { class: "help" }, n))]);
      if (sel !== "#game-msg") say("#game-msg", true, () => [`${L.applied} (${actionName(a.action)}) ${summary(a)}`]);
    }
    return r;
  } catch (e) { refusal(sel, e); return null; }
}

function diceOf(sel) {
  const text = $(sel).value.trim();
  if (!text) return null;
  return text.split(/[\s,;]+/).filter((t) => t).map((t) => (/^\d+$/.test(t) ? Number(t) : t));
}

function seedOf(sel) {
  const input = $(sel);
  if (input.value.trim() === "") input.value = String(Math.floor(Math.random() * 1e9));
  return /^\d+$/.test(input.value.trim()) ? Number(input.value.trim()) : input.value;
}

function applyMove() {
  if (!S.moving) { say("#move-msg", false, () => [L.nothingSelected]); return; }
  const body = { positions: patch(S.before), unit: S.moving, to: S.pos[S.moving] }, as = moveAs();
  if (as.startsWith("push:")) body.push_up = as.slice(5);  // 5.6: not an action
  else { const charge = $("#move-charge").value; body.charge = charge ? [charge] : []; }
  act("/api/apply-move", body, "#move-msg").then((r) => { if (r && body.push_up) S.pushUp = null; });
}

// the moves of a melee: what the moving unit's drag is (a move, a push-up towards an enemy it is
// engaged with, 5.6, or its disengagement, 5.8)
function moveAs() {
  const sel = $("#move-as");
  return S.mode === "move" && S.moving && !$("#move-as-l").hidden ? sel.value : "";
}

/** The enemies ``uid`` is engaged with: recorded (``engaged_with``, either way) or touching (5.1.2, ``check``). */
function engagedEnemies(uid) {
  const me = unitDoc(uid);
  if (!me) return [];
  const rep = S.check && S.check.units.find((x) => x.id === uid);
  const ids = new Set([...me.engaged_with, ...(rep ? rep.engaged_with : [])]);
  for (const u of S.doc.units) if (u.engaged_with.includes(uid)) ids.add(u.id);
  return S.doc.units.filter((u) => ids.has(u.id) && u.side !== me.side).map((u) => u.id);
}

function fillMoveAs(uid) {
  const sel = $("#move-as"), was = sel.dataset.unit === uid ? sel.value : "", enemies = engagedEnemies(uid);
  sel.dataset.unit = uid;
  const values = ["", ...enemies.map((e) => `push:${e}`), ...(enemies.length ? ["disengage"] : [])];
  sel.replaceChildren(...values.map((v) => h("option", { value: v }, moveAsLabel(v))));
  const want = S.disengage === uid ? "disengage" : S.pushUp && S.pushUp.unit === uid ? `push:${S.pushUp.enemy}` : was;
  sel.value = [...sel.options].some((o) => o.value === want) ? want : "";
  $("#move-as-l").hidden = !enemies.length;
}

function moveAsLabel(v) {
  return v === "" ? L.plainMove : v === "disengage" ? `${L.disengageMove} (5.8)` : `${L.pushUpAt} ${v.slice(5)} (5.6)`;
}

function moveAsChanged() {
  const as = $("#move-as").value;
  if (as === "disengage") openDisengage(S.moving);
  else if (S.disengage && S.disengage === S.moving) closeDisengage();
  if (!as.startsWith("push:")) S.pushUp = null;
  S.moveReport = null;
  redraw(); renderPanel(); refresh();
}

// 5.8: disengaging
function openDisengage(uid) {
  S.disengage = uid; S.disengageDoc = null;
  unsay("#disengage-msg");
  renderDisengage(); refresh();
}

function closeDisengage() {
  S.disengage = null; S.disengageDoc = null;
  unsay("#disengage-msg");
  renderDisengage(); drawMarks();
}

/** The disengagement asked or applied: the dragged poses (move mode), else the move found. */
function disengageBody() {
  const uid = S.disengage;
  const dragged = S.mode === "move" && S.moving === uid && S.before && !samePoses(S.pos[uid], S.before[uid]);
  return dragged ? { positions: patch(S.before), unit: uid, to: S.pos[uid] } : { positions: patch(), unit: uid };
}

function applyDisengage(rolled) {
  if (!S.disengage) return;
  const body = disengageBody();
  if (rolled) body.seed = seedOf("#disengage-seed");
  else {
    body.dice = diceOf("#disengage-dice");
    if (!body.dice) { say("#disengage-msg", false, () => [L.disengageMissing]); return; }
  }
  act("/api/apply-disengage", body, "#disengage-msg").then((r) => {
    if (!r) return;
    S.disengage = null; S.disengageDoc = null;  // done: the answer stays, the odds go
    redraw(); renderPanel();
  });
}

// 5.6: the push-up a melee in which both stood names, one button a unit
function pushUpOffer(a) {
  if (a.inputs.attackers) { pushUpPairs(a); return; }
  const steps = (a.ruling && a.ruling.push_up) || [];
  const units = { attacker: a.inputs.attacker, defender: a.inputs.defender };
  const other = { attacker: units.defender, defender: units.attacker };
  const seen = new Set();
  const offers = steps.filter((st) => !seen.has(st.side) && seen.add(st.side));
  if (!offers.length) { unsay("#melee-push"); return; }
  said["#melee-push"] = () => $("#melee-push").replaceChildren(h("div", { class: "help" }, L.pushUpTitle),
    ...offers.map((st) => {
      const cand = steps.filter((x) => x.side === st.side).flatMap((x) => x.candidates);
      const unit = units[st.side], enemy = other[st.side];
      return h("div", { class: "row" }, h("button", { "data-push-up": unit, onclick: () => startPushUp(unit, enemy, cand) },
        `${L.pushUpOf} ${unit} ${L.towards} ${enemy}`), h("span", { class: "help" }, `${L.figures}: ${[...new Set(cand)].join(", ")}; ${L.upTo} ${st.max_cm} cm`));
    }));
  said["#melee-push"]();
}

// 5.10.6: after a combined melee each pair in which both stood pushes up on its own, either way
function pushUpPairs(a) {
  const pairs = (a.ruling && a.ruling.push_up) || [];
  if (!pairs.length) { unsay("#melee-push"); return; }
  said["#melee-push"] = () => $("#melee-push").replaceChildren(h("div", { class: "help" }, L.pushUpPair),
    ...pairs.map(([att, def]) => h("div", { class: "row" },
      ...[[att, def], [def, att]].map(([unit, enemy]) => h("button", { "data-push-up": unit, "data-towards": enemy,
        onclick: () => startPushUp(unit, enemy, []) }, `${L.pushUpOf} ${unit} ${L.towards} ${enemy}`)))));
  said["#melee-push"]();
}

function startPushUp(unit, enemy, candidates) {
  S.pushUp = { unit, enemy, candidates };
  setMode("move");
  startMove(unit);
  S.selected = unit;
  fillCharge(unit);
  redraw(); renderPanel(); refresh();
}

function fillCharge(uid) {
  const side = unitDoc(uid).side;
  const sel = $("#move-charge");
  const was = sel.value;
  sel.replaceChildren(h("option", { value: "" }, L.noCharge), ...S.doc.units.filter((u) => u.side !== side).map((u) => h("option", { value: u.id }, u.id)));
  if ([...sel.options].some((o) => o.value === was)) sel.value = was;
  fillMoveAs(uid);
}

function applyFire(rolled, lost) {
  const body = fireBody(patch());
  const placed = placedAt();
  const done = (r) => { if (r && placed) { S.fireAt = null; setMode("select"); refresh(); } };
  if (lost) { act("/api/apply-fire", body, "#fire-msg").then(done); return; }  // 4.5.5, 4.12.4: no die
  if (rolled) body.seed = seedOf("#fire-seed");
  else {
    body.dice = diceOf("#fire-dice");
    const rem = diceOf("#fire-rem-dice"), mor = diceOf("#fire-morale-dice");
    if (rem) body.remainder_dice = rem;
    if (mor) body.morale_dice = mor;
    if (!body.dice) { say("#fire-msg", false, () => [L.volleyMissing]); return; }
  }
  act("/api/apply-fire", body, "#fire-msg").then(done);
}

function applyMelee(rolled) {
  const combined = meleeCombined(), flags = meleeFlags();
  const body = combined ? { positions: patch(), ...meleeUnits(), ...flags }
    : { positions: patch(), attacker: S.selected, defender: S.target };
  if (!combined && flags.continuing) body.continuing = true;
  if ($("#melee-pursue").checked) body.pursue = true;
  if (rolled) body.seed = seedOf("#melee-seed"); else body.dice = diceOf("#melee-dice");
  unsay("#melee-push");
  act(combined ? "/api/apply-melee-combined" : "/api/apply-melee", body, "#melee-msg").then((r) => {
    $("#meleebox").hidden = false;
    if (r) pushUpOffer(r.applied);
    if (r && S.selected && S.target) doMelee();  // the odds of the next exchange, if any
    else if (r) {  // no next exchange (a side left the table): the answer stays, the odds go
      for (const sel of ["#melee-units", "#melee-body", "#chart-melee"]) $(sel).replaceChildren();
      $("#melee-order-box").hidden = true; $("#melee-declare-l").hidden = true;
    }
  });
}

function applyMorale(rolled) {
  if (!S.moraleSide) return;
  const body = { positions: patch(), side: S.moraleSide };
  if (rolled) body.seed = seedOf("#morale-seed"); else body.dice = diceOf("#morale-dice");
  act("/api/apply-morale", body, "#morale-msg").then((r) => { if (r) doMorale(S.moraleSide); });
}

async function doUndo() {
  try {
    const r = await api("/api/undo", {});
    reload(r.state);
    const u = r.undone;
    say("#game-msg", true, () => [`${L.undone}: ${u.n}. ${actionName(u.action)}`]);
  } catch (e) { refusal("#game-msg", e); }
}

function renderGame() {
  const d = S.doc, t = d.turn;
  $("#turn-counter").replaceChildren(t
    ? h("div", { id: "turn-now", "data-round": String(t.round), "data-side": t.side, "data-phase": t.phase },
      h("b", {}, `${L.round} ${t.round}`), ` · ${L.side} ${t.side} · ${L.phaseName[t.phase] || t.phase}`)
    : h("div", { id: "turn-now", class: "help" }, L.setUp));
  $("#undo").disabled = d.log.length === 0;
  $("#log-summary").textContent = `${L.actions}: ${d.log.length}`;
  $("#log-list").replaceChildren(...(d.log.length
    ? d.log.map((a) => h("li", { "data-action": a.action }, h("b", {}, actionName(a.action)), " ", summary(a)))
    : [h("li", { class: "help" }, L.noActions)]));
}

async function doSaveLog() {
  try {
    const name = saveName().replace(/\.toml$/, "") + ".jsonl";
    const r = await api("/api/save-log", { name, overwrite: $("#overwrite").checked });
    fileMsg(true, () => `${L.saved} ${r.saved}`);
  } catch (e) { fileMsg(false, () => e.message); }
}

async function doDownloadLog() {
  try {
    const text = await api("/api/log");
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
    a.download = S.doc.file.replace(/\.toml$/, "") + ".jsonl";
    document.body.appendChild(a);
    a.click();
    a.remove();
  } catch (e) { fileMsg(false, () => e.message); }
}

// ------------------------------------------------------------------------------------------
// the set-up: a unit from an army list in a formation; terrain drawn and edited
async function loadArmies() {
  try {
    S.armies = (await api("/api/armylists")).armies;
    $("#place-army").replaceChildren(...S.armies.map((a) => h("option", { value: a.id }, a.id)));
    fillProfiles();
  } catch (e) { say("#place-msg", false, e.message); }
}

function fillProfiles() {
  const army = S.armies.find((a) => a.id === $("#place-army").value);
  if (!army) return;
  $("#place-profile").replaceChildren(...army.profiles.filter((p) => p.kind !== "limber").map((p) => h("option", { value: p.id }, `${p.name} (${L.kinds[p.kind] || p.kind})`)));
  $("#place-limber").replaceChildren(h("option", { value: "" }, L.noLimber),
    ...army.profiles.filter((p) => p.kind === "limber").map((p) => h("option", { value: p.id }, p.name)));
}

function placeKind() {
  const kind = $("#place-kind").value;
  $("#place-limber-l").hidden = kind !== "battery";
  $("#place-ranks-l").hidden = kind === "battery" || kind === "square";
}

// szwadron.formations.formation_poses, for the ghost under the pointer (the server expands the
// formation itself when the unit is placed)
function formationPoses(kind, files, ranks, x, y, facing, w, d, gap, limber) {
  const t = facing * Math.PI / 180, fx = Math.cos(t), fy = Math.sin(t), rx = fy, ry = -fx;
  const at = (lat, fwd, turn) => [x + lat * rx + fwd * fx, y + lat * ry + fwd * fy, facing + (turn || 0)];
  const out = [];
  if (kind === "square") {
    const half = files * w / 2;
    for (let i = 0; i < files; i++) out.push(at(-half + w / 2 + i * w, -d / 2));
    for (let j = 1; j < files - 1; j++) { const f = -d / 2 - j * w; out.push(at(-half + d / 2, f, 90)); out.push(at(half - d / 2, f, -90)); }
    for (let i = 0; i < files; i++) out.push(at(-half + w / 2 + i * w, -d / 2 - (files - 1) * w, 180));
    return out.map((p) => [...p, w, d]);
  }
  if (kind === "battery") ranks = 1;
  const row = files * w + (files - 1) * gap;
  for (let r = 0; r < ranks; r++) for (let i = 0; i < files; i++) out.push([...at(-row / 2 + w / 2 + i * (w + gap), -d / 2 - r * (d + gap)), w, d]);
  if (kind === "battery" && limber) {
    for (let i = 0; i < files; i++) out.push([...at(-row / 2 + w / 2 + i * (w + gap), -d - limber[1] / 2), limber[0], limber[1]]);
  }
  return out;
}

function drawPlaceGhost(at) {
  const g = $("#draft");
  g.replaceChildren();
  const army = S.armies && S.armies.find((a) => a.id === $("#place-army").value);
  const prof = army && army.profiles.find((p) => p.id === $("#place-profile").value);
  if (!prof) return;
  const kind = $("#place-kind").value, files = Number($("#place-files").value), ranks = Number($("#place-ranks").value);
  if (!(files >= 1 && files <= 200 && ranks >= 1 && ranks <= 50)) return;
  const lim = kind === "battery" && $("#place-limber").value ? army.profiles.find((p) => p.id === $("#place-limber").value) : null;
  const p = snapPoint(at);
  for (const [x, y, f, w, d] of formationPoses(kind, files, ranks, p[0], p[1], Number($("#place-facing").value) || 0, prof.width, prof.depth,
    kind === "skirmish" ? 2 : 0, lim ? [lim.width, lim.depth] : null)) {
    el("polygon", { points: pts(corners(x, y, f, w, d)), class: "ghost place-ghost" }, g);
  }
}

function doPlace(at) {
  const p = snapPoint(at);
  const body = {
    positions: patch(), army: $("#place-army").value, profile: $("#place-profile").value, side: $("#place-side").value,
    kind: $("#place-kind").value, files: Number($("#place-files").value), x: p[0], y: p[1], facing: Number($("#place-facing").value),
  };
  if (!["square", "battery"].includes(body.kind)) body.ranks = Number($("#place-ranks").value);
  if (body.kind === "battery" && $("#place-limber").value) body.limber = $("#place-limber").value;
  if ($("#place-id").value.trim()) body.id = $("#place-id").value.trim();
  unsay("#place-msg");
  api("/api/place", body).then((r) => {
    $("#draft").replaceChildren();
    reload(r.state);
    $("#place-id").value = "";
    say("#place-msg", true, () => [`${L.placed} `, h("b", {}, r.placed), ` (${count(r.bases, "bases")})`]);
  }, (e) => refusal("#place-msg", e));
}

function snapPoint(p) {
  const grid = Number($("#snap-grid").value);
  return grid > 0 ? [r2(Math.round(p[0] / grid) * grid), r2(Math.round(p[1] / grid) * grid)] : [r2(p[0]), r2(p[1])];
}

const LINEAR = ["obstacle", "high_wall"];

function terrainClick(ev, down) {
  const hit = down && down.closest ? down.closest("[data-terrain]") : null;
  if (hit && !S.draft.length) {
    S.terrainSel = hit.dataset.terrain === S.terrainSel ? null : hit.dataset.terrain;
  } else {
    S.terrainSel = null;
    S.draft.push(snapPoint(toTable(ev.clientX, ev.clientY)));
  }
  drawTerrain(); drawDraft(); renderTerrainBox();
}

function drawDraft(cornerDrag) {
  const g = $("#draft");
  g.replaceChildren();
  const r = 6 / S.view.k;
  if (S.draft.length) {
    const linear = LINEAR.includes($("#terrain-kind").value);
    el(linear || S.draft.length < 3 ? "polyline" : "polygon", { points: pts(S.draft), class: "draft" }, g);
    for (const p of S.draft) el("circle", { cx: p[0], cy: p[1], r: r * 0.6, class: "draft-corner" }, g);
  }
  const t = S.doc && S.doc.terrain.find((f) => f.id === S.terrainSel);
  if (S.mode === "terrain" && t) {
    const list = cornerDrag ? cornerDrag.pts : (t.polygon || t.line);
    el(t.polygon ? "polygon" : "polyline", { points: pts(list), class: "draft" }, g);
    list.forEach((p, k) => el("circle", { cx: p[0], cy: p[1], r, class: "handle", "data-corner": String(k) }, g));
  }
}

function renderTerrainBox() {
  const kind = $("#terrain-kind").value, linear = LINEAR.includes(kind);
  $("#terrain-width-l").hidden = !linear;
  $("#terrain-level-l").hidden = !["hill", "building", "fortification"].includes(kind);
  $("#terrain-finish").disabled = S.draft.length < (linear ? 2 : 3);
  $("#terrain-delete").disabled = !S.terrainSel;
  $("#terrain-hint").textContent = S.terrainSel ? `${L.selectedFeature} ${S.terrainSel}` : (S.draft.length ? `${S.draft.length} ${L.corners}` : L.terrainHint);
  if (S.mode === "terrain") drawDraft();
}

async function terrainAction(path, body, keepDraft) {
  unsay("#terrain-msg");
  try {
    const r = await api(path, { positions: patch(), ...body });
    if (!keepDraft) S.draft = [];
    reload(r.state);
    say("#terrain-msg", true, () => [`${L.applied}: ${r.terrain}`]);
  } catch (e) { refusal("#terrain-msg", e); }
}

function finishTerrain() {
  const kind = $("#terrain-kind").value, linear = LINEAR.includes(kind);
  if (S.draft.length < (linear ? 2 : 3)) return;
  const body = { kind };
  if ($("#terrain-name").value.trim()) body.name = $("#terrain-name").value.trim();
  if (linear) { body.line = S.draft; body.width = Number($("#terrain-width").value); } else body.polygon = S.draft;
  if (["hill", "building", "fortification"].includes(kind)) {
    // a hill is of level 1 or higher; a building's or a fortification's 0 is "not tall" (no level)
    const raw = $("#terrain-level").value.trim(), level = Number(raw), least = kind === "hill" ? 1 : 0;
    if (raw === "" || !Number.isInteger(level) || level < least || level > 10) {
      say("#terrain-msg", false, () => [kind === "hill" ? L.hillLevel : L.tallLevel]);
      return;
    }
    body.level = level;
  }
  terrainAction("/api/terrain-add", body, true).then(() => { if ($("#terrain-msg .ok-msg")) { S.draft = []; drawDraft(); renderTerrainBox(); } });
}

function editTerrain(d) {
  terrainAction("/api/terrain-edit", { id: S.terrainSel, [d.linear ? "line" : "polygon"]: d.pts }).then(() => drawDraft());
}

function deleteTerrain() {
  if (S.terrainSel) terrainAction("/api/terrain-delete", { id: S.terrainSel });
}

// ------------------------------------------------------------------------------------------
// files
function saveName() { return $("#save-name").value.trim(); }

async function doSave() {
  try {
    const r = await api("/api/save", { positions: patch(), name: saveName(), overwrite: $("#overwrite").checked });
    fileMsg(true, () => `${L.saved} ${r.saved}`);
  } catch (e) { fileMsg(false, () => e.message); }
}

async function doDownload() {
  try {
    const text = await api("/api/toml", { positions: patch() });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
    a.download = saveName() || S.doc.file;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } catch (e) { fileMsg(false, () => e.message); }
}

async function doOpen() {
  try {
    load(await api("/api/open", { name: saveName() }));
    const file = S.doc.file;
    fileMsg(true, () => `${L.opened} ${file}`);
  } catch (e) { fileMsg(false, () => e.message); }
}

// ------------------------------------------------------------------------------------------
// start
function absorb(doc) {
  S.doc = doc;
  S.pos = {}; S.orig = {}; S.kinds = {};
  for (const u of doc.units) {
    S.pos[u.id] = u.bases.map((b) => [b.x, b.y, b.facing]);
    S.orig[u.id] = structuredClone(S.pos[u.id]);
    S.kinds[u.id] = { side: u.side, kind: u.kind, sizes: u.bases.map((b) => [b.width, b.depth]) };
  }
}

// after an action, an undo or an edit: the server's new table, the view and selection kept
function reload(doc) {
  absorb(doc);
  const has = (id) => doc.units.some((u) => u.id === id);
  if (!has(S.selected)) S.selected = null;
  if (!has(S.target)) S.target = null;
  S.meleeMore = S.selected && S.target ? S.meleeMore.filter(has) : [];
  if (!doc.terrain.some((t) => t.id === S.terrainSel)) S.terrainSel = null;
  S.check = S.targets = S.fire = S.reachDoc = S.meleeDoc = S.moveReport = S.disengageDoc = null;
  if (!has(S.disengage)) S.disengage = null;
  if (S.pushUp && !(has(S.pushUp.unit) && has(S.pushUp.enemy))) S.pushUp = null;
  S.moving = null; S.before = S.mode === "move" ? structuredClone(S.pos) : null;
  S.fireAt = null;
  S.draft = [];
  $("#meleebox").hidden = true;
  $("#labels").replaceChildren();
  drawTerrain(); redraw(); drawDraft(); renderPanel(); renderGame(); renderTerrainBox();
  refresh();
}

function load(doc) {
  absorb(doc);
  S.selected = S.target = null; S.check = S.targets = S.fire = S.reachDoc = null;
  $("#title").textContent = doc.name;
  $("#file").textContent = doc.file;
  $("#save-name").value = doc.file.replace(/\.toml$/, "") + "-edited.toml";
  $("#labels").replaceChildren();
  drawTerrain();
  fit();
  setMode("select");
  renderGame();
  refresh();
}

function texts() {
  document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = L[n.dataset.t]; });
  document.querySelectorAll("#modes button").forEach((b) => { b.textContent = L[b.dataset.mode]; });
  document.querySelectorAll("#ruler-of option, #pivot option").forEach((o) => { o.textContent = L[o.value]; });
  document.querySelectorAll("#phase button").forEach((b) => { b.textContent = `${L.moraleOf} ${b.dataset.side}`; });
  $("#move-apply").textContent = L.applyMove; $("#move-back").textContent = L.back;
  for (const o of $("#move-as").options) o.textContent = moveAsLabel(o.value);
  if ($("#move-charge").options.length) $("#move-charge").options[0].textContent = L.noCharge;
  $("#next-phase").textContent = L.nextPhase; $("#undo").textContent = L.undo; $("#download-log").textContent = L.downloadLog; $("#save-log").textContent = L.saveLog;
  for (const w of ["fire", "melee", "morale", "disengage"]) { $(`#${w}-apply`).textContent = w === "morale" ? L.applyPhase : L.applyDice; $(`#${w}-roll`).textContent = L.roll; }
  document.querySelectorAll("#place-kind option").forEach((o) => { o.textContent = L.formations[o.value]; });
  document.querySelectorAll("#terrain-kind option").forEach((o) => { o.textContent = L.terrainKinds[o.value]; });
  $("#terrain-finish").textContent = L.finish; $("#terrain-cancel").textContent = L.cancel; $("#terrain-delete").textContent = L.deleteFeature;
  $("#save").textContent = L.save; $("#download").textContent = L.download; $("#open").textContent = L.open;
}

function wire() {
  const svg = $("#table");
  svg.addEventListener("pointerdown", onDown);
  svg.addEventListener("pointermove", onMove);
  svg.addEventListener("pointerup", onUp);
  svg.addEventListener("pointercancel", onUp);
  svg.addEventListener("wheel", onWheel, { passive: false });
  document.querySelectorAll("#modes button").forEach((b) => { b.onclick = () => setMode(b.dataset.mode); });
  document.querySelectorAll("#turn button").forEach((b) => { b.onclick = () => turn(Number(b.dataset.turn)); });
  document.querySelectorAll("#phase button").forEach((b) => { b.onclick = () => doMorale(b.dataset.side); });
  $("#move-apply").onclick = applyMove;
  $("#next-phase").onclick = () => act("/api/next-phase", { positions: patch() }, "#game-msg");
  $("#undo").onclick = doUndo;
  $("#download-log").onclick = doDownloadLog;
  $("#save-log").onclick = doSaveLog;
  $("#declare-btn").onclick = applyDeclare;
  $("#fire-apply").onclick = () => applyFire(false);
  $("#fire-roll").onclick = () => applyFire(true);
  $("#fire-lost").onclick = () => applyFire(false, true);
  $("#melee-apply").onclick = () => applyMelee(false);
  $("#melee-roll").onclick = () => applyMelee(true);
  $("#melee-continuing").onchange = () => { if (!$("#meleebox").hidden && S.selected && S.target) doMelee(); };
  $("#melee-declare").onchange = () => { if (!$("#meleebox").hidden && S.selected && S.target) doMelee(); };
  $("#disengage-apply").onclick = () => applyDisengage(false);
  $("#disengage-roll").onclick = () => applyDisengage(true);
  $("#move-as").onchange = moveAsChanged;
  $("#morale-apply").onclick = () => applyMorale(false);
  $("#morale-roll").onclick = () => applyMorale(true);
  $("#place-army").onchange = fillProfiles;
  $("#place-kind").onchange = placeKind;
  $("#terrain-kind").onchange = renderTerrainBox;
  $("#terrain-finish").onclick = finishTerrain;
  $("#terrain-cancel").onclick = () => { S.draft = []; S.terrainSel = null; drawTerrain(); drawDraft(); renderTerrainBox(); };
  $("#terrain-delete").onclick = deleteTerrain;
  $("#move-back").onclick = () => { if (S.before) S.pos = structuredClone(S.before); S.moving = null; S.fireAt = null; S.moveReport = null; redraw(); renderPanel(); refresh(); };
  $("#save").onclick = doSave;
  $("#download").onclick = doDownload;
  $("#open").onclick = doOpen;
  window.addEventListener("resize", () => S.doc && fit());
  window.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement) return;
    if (ev.key === "[") turn(1);
    else if (ev.key === "]") turn(-1);
    else if (ev.key === "Enter" && S.mode === "terrain") finishTerrain();
    else if (ev.key === "Escape") { if (S.fireAt) { endFireAt(); return; } S.selected = S.target = null; S.meleeMore = []; S.fire = S.targets = null; S.ruler = []; S.measure = null; redraw(); renderPanel(); }
  });
}

// for the browser tests: where a table point is on the screen, and whether answers are settled
window.szwadron = { S, toScreen, toTable, settled: () => !inflight && !dirty, L };

setLang(initialLang(document.documentElement.lang));  // the server writes its language there
texts();
wire();
$("#lang").addEventListener("change", (ev) => {
  localStorage.setItem("szwadron-lang", ev.target.value);
  setLang(ev.target.value);
  texts();
  renderGame();
  for (const write of Object.values(said)) write();
  if (S.armies) {  // the kinds of the profiles, "no limbers"
    const was = [$("#place-profile").value, $("#place-limber").value];
    fillProfiles();
    [$("#place-profile").value, $("#place-limber").value] = was;
  }
  if (!$("#meleebox").hidden && S.meleeDoc && S.selected && S.target) doMelee();
  if (S.moraleSide && $("#morale-list")) doMorale(S.moraleSide);
  refresh();  // the server's answers again, in the new language
});
api("/api/state").then((doc) => {
  if (doc.lang && initialLang(doc.lang) !== LANG) { setLang(initialLang(doc.lang)); texts(); }
  load(doc);
}, (e) => status(e.message));
