// The HTML report: one self-contained file (its styles, script, charts and boards inline; no
// network, no CDN), readable offline and in CI's headless browser.
//
//   tables        the text report's tables, as HTML
//   charts        solve times per solver and band (boxes, log scale), paired ratios with their
//                 intervals, each recent batch's jobs stored over time and its workers'
//                 timeline, memory against states stored
//   puzzles       the slowest, hardest, failed and wrong puzzles; a click opens the player:
//                 play, stop, step back, step forward, reset

import Foundation
import GridlockCharts
import GridlockCluster
import GridlockCore
import GridlockDrawing

public struct HTMLReport {
    public struct Table: Sendable {
        public var caption: String
        public var columns: [String]
        public var rows: [[String]]

        public init(caption: String, columns: [String], rows: [[String]]) {
            self.caption = caption
            self.columns = columns
            self.rows = rows
        }
    }

    public var heading: String
    /// Lines about the batches (host, build, revision, solvers).
    public var batches: [String]
    public var tables: [Table]
    public var fold: ReportFold
    /// The players of `fold.listedRows`, in that order.
    public var players: [PuzzlePlayer]
    /// What the page says it left out (rows it could not read, caps).
    public var notes: [String]
    /// The competitions' plots (cactus, scatter), drawn by the caller: a heading and an SVG each.
    public var competition: [(heading: String, svg: String)] = []
    /// The ratios chart's rows: the ratios table's, from the same fold (SolverScores).
    public var ratios: [IntervalPlot.Row] = []
    /// The time every figure is of: "CPU" or "wall" (`--time`).
    public var timeLabel = TimeBasis.cpu.label

    public init(heading: String, batches: [String], tables: [Table], fold: ReportFold, players: [PuzzlePlayer], notes: [String] = []) {
        self.heading = heading
        self.batches = batches
        self.tables = tables
        self.fold = fold
        self.players = players
        self.notes = notes
    }

    static func escaped(_ text: String) -> String { SVGWriter.escaped(text) }

    public func html() -> String {
        var body: [String] = ["<h1>\(Self.escaped(heading))</h1>"]
        body += batches.map { "<p class=\"meta\">\(Self.escaped($0))</p>" }
        body += (notes + fold.omissions).map { "<p class=\"note\">\(Self.escaped($0))</p>" }
        body.append("<section id=\"tables\"><h2>Tables</h2>")
        for table in tables { body.append(Self.table(table)) }
        body.append("</section>")
        body.append(charts())
        body.append(puzzles())
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.escaped(heading))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            \(body.joined(separator: "\n"))
            <script>\(Self.script)</script>
            </body>
            </html>

            """
    }

    static func table(_ table: Table) -> String {
        var lines = ["<table><caption>\(escaped(table.caption))</caption><thead><tr>"
            + table.columns.map { "<th>\(escaped($0))</th>" }.joined() + "</tr></thead><tbody>"]
        for row in table.rows {
            lines.append("<tr>" + row.map { "<td>\(escaped($0))</td>" }.joined() + "</tr>")
        }
        lines.append("</tbody></table>")
        return lines.joined(separator: "\n")
    }

    func charts() -> String {
        var parts = ["<section id=\"charts\"><h2>Solve times</h2>"]
        let boxes = fold.boxes
        parts.append(boxes.isEmpty ? "<p class=\"empty\">No job ran a solver.</p>"
            : BoxPlot.svg(boxes, chart: "times", title: "Solve time per solver and band, \(timeLabel)", caption: "\(timeLabel) time (log scale)"))
        parts.append("<h2>Ratios (\(timeLabel) time)</h2><p class=\"note\">Each solver's \(timeLabel) time over the first solver of its kind, on the puzzles of one batch both answered right: the geometric mean of the per-puzzle ratios (a puzzle run several times, with --repeats, taking the mean log ratio of its runs), with the 95% interval for other puzzles like these, as in the ratios table above. Red: slower; green: faster.</p>")
        parts.append(ratios.isEmpty ? "<p class=\"empty\">No puzzle was answered right by two solvers of its kind.</p>"
            : IntervalPlot.svg(ratios, chart: "ratios", title: "Paired \(timeLabel) time ratios", caption: "\(timeLabel) time ratio (log scale)"))
        for (index, batch) in fold.timedBatches.enumerated() {
            parts.append("<h2>Batch \(Self.shown(batch.batch))</h2>")
            parts.append(TimeSeriesChart.svg(batch.stored, chart: "stored-\(index)", title: "Jobs stored over time, batch \(batch.batch)"))
            parts.append("<p class=\"note\">Each worker's jobs, from when it started each (stored time less its solve time) to when it was stored; the black tick is its last. A lane that ends late is a straggler.</p>")
            parts.append(WorkerTimeline.svg(batch.lanes, chart: "workers-\(index)", title: "Worker timeline, batch \(batch.batch)"))
        }
        for (heading, svg) in competition {
            parts.append("<h2>\(Self.escaped(heading))</h2>")
            parts.append(svg)
        }
        parts.append("<h2>Memory against states</h2>")
        let scatter = fold.scatter
        parts.append(scatter.points.isEmpty ? "<p class=\"empty\">No job stored states.</p>"
            : ScatterPlot.svg(scatter.points, series: scatter.series, chart: "memory", title: "Memory against states stored",
                              x: .count, y: .bytes, xCaption: "states stored (log scale)", yCaption: "solver memory (log scale)"))
        parts.append("</section>")
        return parts.joined(separator: "\n")
    }

    func puzzles() -> String {
        var parts = ["<section id=\"puzzles\"><h2>Puzzles</h2><div class=\"lists\">"]
        var numbers: [String: Int] = [:]
        for (number, row) in fold.listedRows.enumerated() { numbers["\(row.batch)\u{0}\(row.job)"] = number }
        for list in fold.puzzleLists {
            parts.append("<div class=\"list\"><h3>\(list.caption)</h3>")
            guard !list.rows.isEmpty else {
                parts.append("<p class=\"empty\">None.</p></div>")
                continue
            }
            parts.append("<ol id=\"\(list.id)\">")
            for row in list.rows {
                let number = numbers["\(row.batch)\u{0}\(row.job)"]!
                parts.append("<li><a href=\"#player\" class=\"puzzle\" data-puzzle=\"\(number)\" data-kind=\"\(row.kind.rawValue)\">\(Self.shown(row.source)) [\(Self.shown(row.solver))] \(Self.shown(list.detail(row)))</a></li>")
            }
            parts.append("</ol></div>")
        }
        parts.append("</div>")
        parts.append("""
            <div id="player" hidden>
            <h3 id="player-title"></h3>
            <div id="board"></div>
            <div class="controls"><button id="play">Play</button><button id="stop">Stop</button><button id="back">Step back</button><button id="forward">Step forward</button><button id="reset">Reset</button></div>
            <p id="step"></p>
            <p id="player-note" class="note"></p>
            </div>
            """)
        let encoder = JSONEncoder()
        for (number, player) in players.enumerated() {
            // No "<" at all inside the element (JSON's \\u003c reads back the same): neither a
            // "</script>" nor a "<!--" from a puzzle's source can change how the page parses.
            let json = (try? encoder.encode(player)).map {
                String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            } ?? "{}"
            parts.append("<script type=\"application/json\" id=\"puzzle-\(number)\">\(json)</script>")
        }
        parts.append("</section>")
        return parts.joined(separator: "\n")
    }

    /// Text from the database as the page shows it: control characters escaped, at most 200
    /// characters (a 100 MB source must not make a 100 MB page).
    static func shown(_ text: String) -> String {
        let printable = text.printable
        return escaped(printable.count > 200 ? printable.prefix(200) + "…" : printable)
    }

    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:24px auto;max-width:1100px;color:#222;background:#faf8f4;padding:0 16px}
        h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd}h3{font-size:15px}
        .meta,.note{color:#555}.empty{color:#777;font-style:italic}
        table{border-collapse:collapse;margin:12px 0;font-size:12px;background:#fff;display:block;overflow-x:auto}
        caption{text-align:left;font-weight:bold;padding:4px 0}
        th,td{border:1px solid #ddd;padding:3px 6px;text-align:right;white-space:nowrap}th{background:#f0ece4}
        td:nth-child(-n+3),th:nth-child(-n+3){text-align:left}
        svg.chart{display:block;margin:8px 0;max-width:100%;height:auto;border:1px solid #e4e0d8}
        .lists{display:flex;flex-wrap:wrap;gap:16px}.list{flex:1 1 240px}.list ol{padding-left:20px;font-size:12px}
        a.puzzle{color:#1565c0;text-decoration:none}a.puzzle:hover{text-decoration:underline}
        #player{margin-top:16px;padding:12px;background:#fff;border:1px solid #ddd}
        #board svg{max-width:100%;height:auto}
        .controls button{margin-right:6px;padding:4px 10px}
        """

    static let script = """
        (function () {
          var current = null, step = 0, timer = null;
          var board = document.getElementById('board'), label = document.getElementById('step');
          function stop() { if (timer !== null) { clearInterval(timer); timer = null; } }
          function show(index) {
            if (!current) { return; }
            if (current.frames.length === 0) { board.textContent = ''; label.textContent = ''; return; }
            step = Math.max(0, Math.min(index, current.frames.length - 1));
            board.innerHTML = current.frames[step].map(function (line) { return current.lines[line]; }).join('\\n') + '\\n';
            label.dataset.step = String(step);
            label.textContent = 'step ' + step + ' of ' + (current.frames.length - 1) + (current.moves[step] ? ': ' + current.moves[step] : '');
          }
          document.querySelectorAll('a.puzzle').forEach(function (link) {
            link.addEventListener('click', function (event) {
              event.preventDefault();
              stop();
              current = JSON.parse(document.getElementById('puzzle-' + link.dataset.puzzle).textContent);
              document.getElementById('player').hidden = false;
              document.getElementById('player-title').textContent = current.title;
              document.getElementById('player-note').textContent = current.note;
              show(0);
            });
          });
          document.getElementById('forward').addEventListener('click', function () { stop(); show(step + 1); });
          document.getElementById('back').addEventListener('click', function () { stop(); show(step - 1); });
          document.getElementById('reset').addEventListener('click', function () { stop(); show(0); });
          document.getElementById('stop').addEventListener('click', stop);
          document.getElementById('play').addEventListener('click', function () {
            stop();
            timer = setInterval(function () {
              if (!current || step >= current.frames.length - 1) { stop(); return; }
              show(step + 1);
            }, 600);
          });
        })();
        """
}
