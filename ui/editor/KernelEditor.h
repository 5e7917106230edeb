// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"
#include "core/profiling/Hotspots.h"

#include "ui/editor/Qsci.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

class QsciStyle;

namespace wb::ui {

class CudaLexer;

/// The source editor of one tab (kernel.cu or reference.cpp): QScintilla with CUDA (or C++)
/// highlighting, line numbers, folding, brace matching, auto-indent and autocompletion of
/// CUDA built-ins and intrinsics. Compiler diagnostics are shown where the eye is: a margin
/// marker, a squiggle from the caret column to the end of the word, and an annotation under
/// the line.
class KernelEditor : public QsciScintilla {
    Q_OBJECT
public:
    enum class Language { Cuda, Cpp };
    explicit KernelEditor(Language language, QWidget* parent = nullptr);
    ~KernelEditor() override;

    /// The name diagnostics carry for this editor ("kernel.cu"); others are ignored.
    void setSourceName(const QString& name) { m_sourceName = name; }
    const QString& sourceName() const noexcept { return m_sourceName; }

    /// Replaces all markers, squiggles and annotations with `diagnostics` (those whose file
    /// matches sourceName(), or that have no file).
    void setDiagnostics(const std::vector<Diagnostic>& diagnostics);
    void clearDiagnostics();
    const std::vector<Diagnostic>& diagnostics() const noexcept { return m_diagnostics; }

    /// 1-based line that carries an error (or warning) marker; for tests and navigation.
    bool hasErrorMarker(int line) const;
    bool hasWarningMarker(int line) const;
    /// The annotation under 1-based `line` ("" when none).
    QString annotationText(int line) const;
    /// Marks the lines of data races (diagnostics of this file) with the race marker, distinct
    /// from an error's and a breakpoint's red dot; call after setDiagnostics, which clears them.
    void markRaces(const std::vector<Diagnostic>& races);
    bool hasRaceMarker(int line) const;
    /// The Scintilla marker symbol races are drawn with (SC_MARK_…).
    int raceMarkerSymbol() const;
    /// A text shown (greyed, as an annotation under the first line) while the editor is empty:
    /// reference.cpp's stub with the signature a reference needs. "" for none.
    void setEmptyHint(const QString& hint);
    const QString& emptyHint() const noexcept { return m_emptyHint; }
    bool emptyHintShown() const noexcept { return m_hintShown; }

    /// Moves the cursor to 1-based line/column and makes it visible.
    void goToLine(int line, int column = 1);
    /// Next / previous diagnostic after / before the cursor (wraps); false when none.
    bool goToNextDiagnostic(bool backwards);

    /// Shows PC-sampling hotspots in the heat margin beside the text: per sampled line of this
    /// file, a bar (its length and colour grow with the line's share of the samples) and the
    /// share; hovering it tells the samples and the top stall reasons. nullptr clears it.
    void setHotspots(const profiling::HotspotReport* hotspots);
    bool hasHotspots() const noexcept { return !m_heat.empty(); }
    /// The heat margin's text of 1-based `line` ("" when the line has no samples).
    QString heatText(int line) const;
    /// The tooltip of the heat margin at 1-based `line` ("" when the line has no samples).
    QString heatToolTip(int line) const;
    /// 1-based line whose heat margin holds `viewportPoint`; 0 when none.
    int heatLineAt(const QPoint& viewportPoint) const;

    /// Re-applies colours after a palette change (light/dark follows the system).
    void applyPalette();

    /// Keeps at least `lines` lines on screen (0: off, the default) by taking the room a
    /// monospace font leaves above and below its glyphs (never less than 0.8 em above the
    /// baseline and 0.25 em below it, enough for code): Presentation Mode asks for 20 at
    /// 1280×720, which DejaVu Sans Mono's spacing meets and Noto Sans Mono's (1.36 em) does not.
    /// Follows resizes and zoom; the font size is never changed.
    Q_INVOKABLE void setMinimumLinesOnScreen(int lines);
    int minimumLinesOnScreen() const noexcept { return m_minLines; }

    /// The widget width that shows the widest line whole at the current zoom: the widest line
    /// in its lexer's styles (tabs expanded), the margins, and room for a vertical scroll bar.
    Q_INVOKABLE int widthForLongestLine();
    /// Presentation Mode when the widest line cannot get its width: wraps at words with an
    /// arrow at each wrap (`on`), or back to the wrapping before (`!on`).
    Q_INVOKABLE void setPresentationWrap(bool on);

    /// Offers the CUDA words and the document's identifiers that start with the word before
    /// the cursor (automatically after three characters; `force` for Ctrl+Space).
    void showCompletions(bool force);

Q_SIGNALS:
    /// The user clicked in the text (or moved the cursor) onto 1-based `line`: the SASS and
    /// PTX views highlight that line's instructions.
    void sourceLineSelected(int line);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateLineNumberWidth();
    void showEmptyHint();
    /// A `}` typed alone on its line: to the indentation of its `{` line.
    void dedentClosingBrace();
    void applyHeat();
    void fitLines();

    struct Heat {
        double share = 0;
        std::uint64_t samples = 0;
        std::vector<profiling::StallCount> stalls;
    };

    Language m_language;
    QString m_sourceName;
    CudaLexer* m_lexer = nullptr;
    QStringList m_words; ///< the language's fixed completion words
    QsciStyle* m_errorStyle = nullptr;
    QsciStyle* m_warningStyle = nullptr;
    QsciStyle* m_noteStyle = nullptr;
    std::vector<Diagnostic> m_diagnostics;
    std::map<int, Heat> m_heat;           ///< 1-based line → its samples
    std::vector<QsciStyle*> m_heatStyles; ///< coolest to hottest
    int m_minLines = 0;                   ///< setMinimumLinesOnScreen
    /// The wrapping before setPresentationWrap(true); unset when it is off.
    std::optional<std::pair<WrapMode, long>> m_wrapBefore;
    QString m_emptyHint;
    bool m_hintShown = false;
};

} // namespace wb::ui
