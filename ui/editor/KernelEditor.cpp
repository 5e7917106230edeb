// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editor/KernelEditor.h"

#include "core/common/Text.h"
#include "ui/editor/CudaLexer.h"
#include "ui/editor/CudaWords.h"

#include <QEvent>
#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QScrollBar>
#include <QStyle>
#include <QToolTip>

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace wb::ui {

namespace {

constexpr int kErrorMarker = 0;
constexpr int kWarningMarker = 1;
/// A data race's line: a bookmark, distinct from an error's and a breakpoint's red dots.
constexpr int kRaceMarker = 2;
constexpr int kErrorIndicator = 8;
constexpr int kWarningIndicator = 9;
constexpr int kMarkerMargin = 1;
constexpr int kHeatMargin = 3;
constexpr int kHeatLevels = 6;
// Style numbers of this editor's annotation and margin-text styles, fixed per editor: above
// the C++ lexer's (0–27, inactive 64–91) and Scintilla's predefined ones (32–39). QsciStyle(-1)
// would take them from a process-wide pool of 24 (63 down to 40) that is never given back:
// a second window's editors (or a palette change) ran out, and styles numbered -1 drew nothing
// (the hottest line's margin text was missing in the H200 screenshot of reduction).
constexpr int kErrorStyle = 200;
constexpr int kWarningStyle = 201;
constexpr int kNoteStyle = 202;
constexpr int kHeatStyleBase = 203; // kHeatLevels styles

bool isErrorSeverity(Severity s)
{
    return s == Severity::Error || s == Severity::Fatal;
}

} // namespace

KernelEditor::KernelEditor(Language language, QWidget* parent)
    : QsciScintilla(parent)
    , m_language(language)
{
    m_sourceName =
        language == Language::Cuda ? QStringLiteral("kernel.cu") : QStringLiteral("reference.cpp");
    m_lexer = new CudaLexer(language == Language::Cuda, this);
    setLexer(m_lexer);
    // A zoom (Presentation Mode, Ctrl+wheel) changes the digits' width and the line height.
    connect(this, &QsciScintillaBase::SCN_ZOOM, this, [this] {
        updateLineNumberWidth();
        fitLines();
        // Tracking only widens the horizontal range: measured again at the new size (no
        // range left over from Presentation Mode's zoom).
        SendScintilla(SCI_SETSCROLLWIDTH, 1UL);
    });

    // Completion without QsciAPIs: its preparation runs on a thread that must not outlive the
    // editor. The lists are small; filtering them per keystroke costs microseconds.
    m_words = language == Language::Cuda
                  ? CudaWords::instance().all()
                  : QString::fromUtf8(m_lexer->keywords(1)).split(u' ', Qt::SkipEmptyParts);
    setAutoCompletionSource(AcsNone);
    setAutoCompletionCaseSensitivity(true);
    connect(this, &QsciScintillaBase::SCN_CHARADDED, this, [this](int ch) {
        if (ch == '_' || (ch < 128 && std::isalnum(ch))) showCompletions(false);
    });

    setUtf8(true);
    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setTabWidth(4);
    setIndentationGuides(true);
    setBraceMatching(SloppyBraceMatch);
    setFolding(BoxedTreeFoldStyle, 2);
    setCaretLineVisible(true);
    setEolMode(EolUnix);
    setWrapMode(WrapNone);
    // The horizontal range follows the longest line (no scroll bar for short kernels).
    SendScintilla(SCI_SETSCROLLWIDTH, 1UL);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1UL);

    setMarginType(0, NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginType(kMarkerMargin, SymbolMargin);
    setMarginWidth(kMarkerMargin, 16);
    setMarginSensitivity(kMarkerMargin, true);
    setMarginMarkerMask(kMarkerMargin,
                        (1 << kErrorMarker) | (1 << kWarningMarker) | (1 << kRaceMarker));
    markerDefine(QsciScintilla::Bookmark, kRaceMarker);
    setMarkerBackgroundColor(QColor(0x9141ac), kRaceMarker);
    setMarkerForegroundColor(QColor(0x5b2a6e), kRaceMarker);
    markerDefine(QsciScintilla::Circle, kErrorMarker);
    setMarkerBackgroundColor(QColor(0xd0342c), kErrorMarker);
    setMarkerForegroundColor(QColor(0x8a1c16), kErrorMarker);
    markerDefine(QsciScintilla::Circle, kWarningMarker);
    setMarkerBackgroundColor(QColor(0xe3a21a), kWarningMarker);
    setMarkerForegroundColor(QColor(0x8a6210), kWarningMarker);

    indicatorDefine(SquiggleIndicator, kErrorIndicator);
    setIndicatorForegroundColor(QColor(0xe0302a), kErrorIndicator);
    indicatorDefine(SquiggleIndicator, kWarningIndicator);
    setIndicatorForegroundColor(QColor(0xd08a00), kWarningIndicator);

    setAnnotationDisplay(AnnotationBoxed);
    // A typed `}` alone on its line goes to the indentation of the line with its `{`.
    connect(this, &QsciScintillaBase::SCN_CHARADDED, this, [this](int ch) {
        if (ch == '}') dedentClosingBrace();
    });
    // The empty-text hint comes and goes with the text.
    connect(this, &QsciScintilla::textChanged, this, &KernelEditor::showEmptyHint);

    connect(this, &QsciScintilla::linesChanged, this, &KernelEditor::updateLineNumberWidth);
    connect(this, &QsciScintilla::marginClicked, this,
            [this](int margin, int line, Qt::KeyboardModifiers) {
                if (margin != kMarkerMargin) return;
                for (const Diagnostic& d : m_diagnostics)
                    if (d.line == line + 1) {
                        goToLine(d.line, std::max(1, d.column));
                        return;
                    }
            });
    setMarginType(kHeatMargin, TextMargin);
    setMarginWidth(kHeatMargin, 0);
    viewport()->installEventFilter(this);
    connect(this, &QsciScintilla::cursorPositionChanged, this,
            [this](int line, int) { Q_EMIT sourceLineSelected(line + 1); });
    applyPalette();
    updateLineNumberWidth();
}

KernelEditor::~KernelEditor()
{
    delete m_errorStyle;
    delete m_warningStyle;
    delete m_noteStyle;
    qDeleteAll(m_heatStyles);
}

void KernelEditor::updateLineNumberWidth()
{
    const auto digits = static_cast<int>(QString::number(std::max(lines(), 99)).size());
    setMarginWidth(0, QString(digits + 1, u'9'));
}

void KernelEditor::applyPalette()
{
    const QPalette pal = palette();
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    m_lexer->applyPalette(pal);
    setCaretForegroundColor(pal.color(QPalette::Text));
    setCaretLineBackgroundColor(dark ? QColor(0x2a2f36) : QColor(0xf3f6fa));
    setMarginsBackgroundColor(pal.color(QPalette::Window));
    setMarginsForegroundColor(pal.color(QPalette::PlaceholderText));
    setFoldMarginColors(pal.color(QPalette::Window), pal.color(QPalette::Window));
    setMatchedBraceBackgroundColor(dark ? QColor(0x3d5a80) : QColor(0xc8e1ff));
    setMatchedBraceForegroundColor(pal.color(QPalette::Text));
    setUnmatchedBraceForegroundColor(QColor(0xd0342c));
    setSelectionBackgroundColor(pal.color(QPalette::Highlight));
    setSelectionForegroundColor(pal.color(QPalette::HighlightedText));

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QFont small = mono;
    small.setPointSizeF(std::max(7.0, mono.pointSizeF() - 1.0));
    delete m_errorStyle;
    delete m_warningStyle;
    delete m_noteStyle;
    m_errorStyle = new QsciStyle(kErrorStyle, QStringLiteral("diagnostic error"),
                                 dark ? QColor(0xffb4ae) : QColor(0x8a1c16),
                                 dark ? QColor(0x4a1f1f) : QColor(0xfde8e7), small);
    m_warningStyle = new QsciStyle(kWarningStyle, QStringLiteral("diagnostic warning"),
                                   dark ? QColor(0xffd58a) : QColor(0x6b4a00),
                                   dark ? QColor(0x433517) : QColor(0xfff4d6), small);
    m_noteStyle =
        new QsciStyle(kNoteStyle, QStringLiteral("diagnostic note"), pal.color(QPalette::Text),
                      pal.color(QPalette::AlternateBase), small);
    qDeleteAll(m_heatStyles);
    m_heatStyles.clear();
    // Cool (pale amber) to hot (red), readable on the margin's background.
    const QColor cool = dark ? QColor(0xb58b2a) : QColor(0xe0b040);
    const QColor hot = dark ? QColor(0xff5a4a) : QColor(0xc81e10);
    for (int i = 0; i < kHeatLevels; ++i) {
        const double t = static_cast<double>(i) / (kHeatLevels - 1);
        const QColor c =
            QColor::fromRgbF(static_cast<float>(cool.redF() + t * (hot.redF() - cool.redF())),
                             static_cast<float>(cool.greenF() + t * (hot.greenF() - cool.greenF())),
                             static_cast<float>(cool.blueF() + t * (hot.blueF() - cool.blueF())));
        m_heatStyles.push_back(new QsciStyle(kHeatStyleBase + i, QStringLiteral("heat %1").arg(i),
                                             c, pal.color(QPalette::Window), small));
    }
    setDiagnostics(std::vector<Diagnostic>(m_diagnostics));
    applyHeat();
}

void KernelEditor::setHotspots(const profiling::HotspotReport* hotspots)
{
    m_heat.clear();
    if (hotspots) {
        const std::string mine = m_sourceName.toStdString();
        for (const profiling::HotspotLine& l : hotspots->lines) {
            if (l.line <= 0) continue;
            const std::string_view base = fileNameOf(l.file);
            if (!base.empty() && base != mine) continue;
            m_heat[l.line] = {hotspots->share(l), l.samples, l.stalls};
        }
    }
    applyHeat();
}

void KernelEditor::applyHeat()
{
    clearMarginText();
    if (m_heat.empty() || m_heatStyles.empty()) {
        setMarginWidth(kHeatMargin, 0);
        return;
    }
    setMarginWidth(kHeatMargin, QStringLiteral("\u2588\u2588\u2588\u2588\u2588\u2588 100%M"));
    for (const auto& [line, heat] : m_heat) {
        if (line > lines()) continue;
        const int level =
            std::clamp(static_cast<int>(heat.share * kHeatLevels * 1.5), 0, kHeatLevels - 1);
        setMarginText(line - 1, heatText(line), *m_heatStyles[static_cast<std::size_t>(level)]);
    }
}

QString KernelEditor::heatText(int line) const
{
    const auto it = m_heat.find(line);
    if (it == m_heat.end()) return {};
    const double pct = 100.0 * it->second.share;
    const int blocks = std::clamp(static_cast<int>(std::lround(it->second.share * 6.0)), 1, 6);
    return QString(blocks, QChar(0x2588)) + QString(7 - blocks, u' ') +
           (pct >= 9.95 ? QString::number(pct, 'f', 0) : QString::number(pct, 'f', 1)) + u'%';
}

QString KernelEditor::heatToolTip(int line) const
{
    const auto it = m_heat.find(line);
    if (it == m_heat.end()) return {};
    const Heat& h = it->second;
    QString tip = tr("Line %1: %2% of the PC samples (%3)")
                      .arg(line)
                      .arg(100.0 * h.share, 0, 'f', 1)
                      .arg(h.samples);
    if (!h.stalls.empty()) {
        tip += u'\n' + tr("Top stall reason: %1").arg(QString::fromStdString(h.stalls[0].reason));
        for (std::size_t i = 0; i < h.stalls.size() && i < 4; ++i)
            tip += QStringLiteral("\n  %1  %2%")
                       .arg(QString::fromStdString(h.stalls[i].reason))
                       .arg(100.0 * static_cast<double>(h.stalls[i].samples) /
                                static_cast<double>(std::max<std::uint64_t>(1, h.samples)),
                            0, 'f', 0);
    }
    return tip;
}

int KernelEditor::heatLineAt(const QPoint& p) const
{
    if (m_heat.empty()) return 0;
    int left = 0;
    for (int m = 0; m < kHeatMargin; ++m)
        left += marginWidth(m);
    if (p.x() < left || p.x() >= left + marginWidth(kHeatMargin)) return 0;
    auto* self = const_cast<KernelEditor*>(this);
    const long pos = self->SendScintilla(
        SCI_POSITIONFROMPOINT, static_cast<unsigned long>(left + marginWidth(kHeatMargin) + 2),
        static_cast<long>(p.y()));
    if (pos < 0) return 0;
    return static_cast<int>(
               self->SendScintilla(SCI_LINEFROMPOSITION, static_cast<unsigned long>(pos))) +
           1;
}

bool KernelEditor::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == viewport() && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int line = heatLineAt(help->pos());
        const QString tip = line > 0 ? heatToolTip(line) : QString();
        if (!tip.isEmpty()) {
            QToolTip::showText(help->globalPos(), tip, viewport());
            return true;
        }
    }
    return QsciScintilla::eventFilter(watched, event);
}

void KernelEditor::changeEvent(QEvent* event)
{
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) applyPalette();
}

void KernelEditor::resizeEvent(QResizeEvent* event)
{
    QsciScintilla::resizeEvent(event);
    fitLines();
}

void KernelEditor::setMinimumLinesOnScreen(int lines)
{
    m_minLines = std::max(0, lines);
    fitLines();
}

int KernelEditor::widthForLongestLine()
{
    // Style every line (Scintilla styles lazily, what is on screen), then measure each line in
    // the default style and in its first and last characters' styles (a comment may be italic).
    SendScintilla(SCI_COLOURISE, 0UL, -1L);
    const QString spaces(std::max(1, tabWidth()), u' ');
    long widest = 0;
    for (int line = 0; line < lines(); ++line) {
        QString t = text(line);
        while (t.endsWith(u'\n') || t.endsWith(u'\r'))
            t.chop(1);
        if (t.trimmed().isEmpty()) continue;
        t.replace(u'\t', spaces);
        const QByteArray utf8 = t.toUtf8();
        const long start = positionFromLineIndex(line, 0);
        const long end = SendScintilla(SCI_GETLINEENDPOSITION, static_cast<unsigned long>(line));
        for (long style :
             {static_cast<long>(STYLE_DEFAULT),
              SendScintilla(SCI_GETSTYLEAT, static_cast<unsigned long>(start)),
              SendScintilla(SCI_GETSTYLEAT, static_cast<unsigned long>(std::max(start, end - 1)))})
            widest =
                std::max(widest, SendScintilla(SCI_TEXTWIDTH, static_cast<unsigned long>(style),
                                               utf8.constData()));
    }
    long margins = SendScintilla(SCI_GETMARGINLEFT) + SendScintilla(SCI_GETMARGINRIGHT);
    for (unsigned long m = 0; m < 5; ++m)
        margins += SendScintilla(SCI_GETMARGINWIDTHN, m);
    // The frame, and a vertical scroll bar whether or not one is shown now; the caret's width.
    const int frame = width() - viewport()->width() -
                      (verticalScrollBar()->isVisible() ? verticalScrollBar()->width() : 0);
    const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    return static_cast<int>(widest + margins) + frame + bar + 4;
}

void KernelEditor::setPresentationWrap(bool on)
{
    if (on) {
        if (!m_wrapBefore)
            m_wrapBefore = std::make_pair(wrapMode(), SendScintilla(SCI_GETWRAPVISUALFLAGS));
        setWrapMode(WrapWord);
        // An arrow at the end of each wrapped piece and at the start of its continuation.
        setWrapVisualFlags(WrapFlagByText, WrapFlagByText);
        // The arrows are drawn in the whitespace colour: the selection's, visible on any
        // background.
        SendScintilla(SCI_SETWHITESPACEFORE, 1UL, palette().color(QPalette::Highlight));
    } else if (m_wrapBefore) {
        setWrapMode(m_wrapBefore->first);
        SendScintilla(SCI_SETWRAPVISUALFLAGS, static_cast<unsigned long>(m_wrapBefore->second));
        SendScintilla(SCI_SETWHITESPACEFORE, 0UL, 0L);
        m_wrapBefore.reset();
    }
}

void KernelEditor::fitLines()
{
    // The font's own line height: Scintilla's text height less the extra room set before.
    const int line =
        static_cast<int>(SendScintilla(SCI_TEXTHEIGHT, 0UL)) - extraAscent() - extraDescent();
    const int height = viewport()->height();
    int above = 0, below = 0;
    if (m_minLines > 0 && height > 0 && line > 0 && height / line < m_minLines) {
        QFont f = static_cast<QsciLexer*>(m_lexer)->defaultFont();
        f.setPointSizeF(f.pointSizeF() + static_cast<double>(SendScintilla(SCI_GETZOOM)));
        const QFontMetricsF fm(f);
        const double em = QFontInfo(f).pixelSize();
        // Code needs about 0.8 em above the baseline (ascenders, brackets) and 0.25 em below
        // (descenders); a font's line spacing may reserve more, for accents.
        const int spareAbove = std::max(0, static_cast<int>(std::floor(fm.ascent() - 0.8 * em)));
        const int spareBelow = std::max(0, static_cast<int>(std::floor(fm.descent() - 0.25 * em)));
        const int excess = line - height / m_minLines;
        above = std::min(excess, spareAbove);
        below = std::min(excess - above, spareBelow);
    }
    // Only a change re-lays the text out.
    if (extraAscent() != -above) setExtraAscent(-above);
    if (extraDescent() != -below) setExtraDescent(-below);
}

void KernelEditor::clearDiagnostics()
{
    setDiagnostics({});
}

void KernelEditor::setDiagnostics(const std::vector<Diagnostic>& diagnostics)
{
    markerDeleteAll(kErrorMarker);
    markerDeleteAll(kWarningMarker);
    markerDeleteAll(kRaceMarker);
    clearAnnotations();
    m_hintShown = false;
    const int lastLine = std::max(0, lines() - 1);
    clearIndicatorRange(0, 0, lastLine, lineLength(lastLine), kErrorIndicator);
    clearIndicatorRange(0, 0, lastLine, lineLength(lastLine), kWarningIndicator);

    m_diagnostics.clear();
    const std::string mine = m_sourceName.toStdString();
    // Annotations of one line are joined, the most severe message first.
    std::vector<std::pair<int, std::vector<const Diagnostic*>>> perLine;
    for (const Diagnostic& d : diagnostics) {
        if (!d.file.empty() && d.file != mine) continue;
        m_diagnostics.push_back(d);
    }
    for (const Diagnostic& d : m_diagnostics) {
        if (d.line <= 0 || d.line > lines()) continue;
        const int line = d.line - 1;
        const bool error = isErrorSeverity(d.severity);
        if (d.severity != Severity::Note) markerAdd(line, error ? kErrorMarker : kWarningMarker);

        const QString text = this->text(line);
        int from = 0;
        int to = static_cast<int>(text.size());
        while (to > 0 && (text[to - 1] == u'\n' || text[to - 1] == u'\r'))
            --to;
        if (d.column > 0 && d.column <= to) {
            from = d.column - 1;
            int end = from;
            while (end < to && (text[end].isLetterOrNumber() || text[end] == u'_'))
                ++end;
            to = end > from ? end : std::min(to, from + 1);
        } else {
            while (from < to && text[from].isSpace())
                ++from;
        }
        if (d.severity != Severity::Note && to > from)
            fillIndicatorRange(line, from, line, to, error ? kErrorIndicator : kWarningIndicator);

        auto it = std::find_if(perLine.begin(), perLine.end(),
                               [line](const auto& p) { return p.first == line; });
        if (it == perLine.end()) {
            perLine.push_back({line, {}});
            it = std::prev(perLine.end());
        }
        it->second.push_back(&d);
    }
    for (auto& [line, list] : perLine) {
        std::stable_sort(list.begin(), list.end(), [](const Diagnostic* a, const Diagnostic* b) {
            return static_cast<int>(a->severity) > static_cast<int>(b->severity);
        });
        QStringList parts;
        for (const Diagnostic* d : list) {
            QString part = QStringLiteral("%1: %2").arg(
                QString::fromUtf8(severityName(d->severity)), QString::fromStdString(d->message));
            for (const std::string& c : d->context)
                part += u'\n' + QString::fromStdString(c);
            parts << part;
        }
        const Severity top = list.front()->severity;
        const QsciStyle* style = isErrorSeverity(top)       ? m_errorStyle
                                 : top == Severity::Warning ? m_warningStyle
                                                            : m_noteStyle;
        if (style) annotate(line, parts.join(u'\n'), *style);
    }
    showEmptyHint();
}

void KernelEditor::markRaces(const std::vector<Diagnostic>& races)
{
    const std::string mine = m_sourceName.toStdString();
    for (const Diagnostic& d : races) {
        if ((!d.file.empty() && d.file != mine) || d.line <= 0 || d.line > lines()) continue;
        const bool compileError =
            std::any_of(m_diagnostics.begin(), m_diagnostics.end(), [&](const Diagnostic& c) {
                return c.line == d.line && isErrorSeverity(c.severity) && c.message != d.message;
            });
        if (!compileError) markerDelete(d.line - 1, kErrorMarker);
        markerAdd(d.line - 1, kRaceMarker);
    }
}

bool KernelEditor::hasRaceMarker(int line) const
{
    return line >= 1 &&
           (const_cast<KernelEditor*>(this)->markersAtLine(line - 1) & (1u << kRaceMarker));
}

int KernelEditor::raceMarkerSymbol() const
{
    return static_cast<int>(const_cast<KernelEditor*>(this)->SendScintilla(
        SCI_MARKERSYMBOLDEFINED, static_cast<unsigned long>(kRaceMarker)));
}

void KernelEditor::setEmptyHint(const QString& hint)
{
    if (hint == m_emptyHint) return;
    m_emptyHint = hint;
    showEmptyHint();
}

void KernelEditor::showEmptyHint()
{
    const bool show = !m_emptyHint.isEmpty() && length() == 0;
    if (show && m_noteStyle) {
        annotate(0, m_emptyHint, *m_noteStyle);
        m_hintShown = true;
    } else if (m_hintShown) {
        clearAnnotations(0);
        m_hintShown = false;
    }
}

void KernelEditor::dedentClosingBrace()
{
    int line = 0, column = 0;
    getCursorPosition(&line, &column);
    const QString text = this->text(line);
    const qsizetype brace = text.indexOf(u'}');
    if (brace < 0 || !text.left(brace).trimmed().isEmpty()) return; // not alone on its line
    const long at = SendScintilla(SCI_GETCURRENTPOS) - 1;
    const long match = SendScintilla(SCI_BRACEMATCH, static_cast<unsigned long>(at), 0L);
    const int step = indentationWidth() > 0 ? indentationWidth() : tabWidth();
    const int target = match >= 0 ? indentation(static_cast<int>(SendScintilla(
                                        SCI_LINEFROMPOSITION, static_cast<unsigned long>(match))))
                                  : std::max(0, indentation(line) - step);
    if (target == indentation(line)) return;
    const int after = column - static_cast<int>(brace); // the caret's offset from the brace
    setIndentation(line, target);
    const QString now = this->text(line);
    setCursorPosition(line, static_cast<int>(now.indexOf(u'}')) + after);
}

bool KernelEditor::hasErrorMarker(int line) const
{
    return line >= 1 &&
           (const_cast<KernelEditor*>(this)->markersAtLine(line - 1) & (1u << kErrorMarker));
}

bool KernelEditor::hasWarningMarker(int line) const
{
    return line >= 1 &&
           (const_cast<KernelEditor*>(this)->markersAtLine(line - 1) & (1u << kWarningMarker));
}

QString KernelEditor::annotationText(int line) const
{
    return line >= 1 ? annotation(line - 1) : QString();
}

void KernelEditor::goToLine(int line, int column)
{
    const int l = std::clamp(line, 1, std::max(1, lines())) - 1;
    setCursorPosition(l, std::max(0, column - 1));
    ensureLineVisible(l);
    setFocus();
}

bool KernelEditor::goToNextDiagnostic(bool backwards)
{
    std::vector<int> located;
    for (const Diagnostic& d : m_diagnostics)
        if (d.line > 0) located.push_back(d.line);
    if (located.empty()) return false;
    std::sort(located.begin(), located.end());
    located.erase(std::unique(located.begin(), located.end()), located.end());
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    const int current = line + 1;
    int target = 0;
    if (!backwards) {
        auto it = std::upper_bound(located.begin(), located.end(), current);
        target = it == located.end() ? located.front() : *it;
    } else {
        auto it = std::lower_bound(located.begin(), located.end(), current);
        target = it == located.begin() ? located.back() : *std::prev(it);
    }
    for (const Diagnostic& d : m_diagnostics)
        if (d.line == target) {
            goToLine(target, std::max(1, d.column));
            break;
        }
    return true;
}

} // namespace wb::ui

namespace wb::ui {

void KernelEditor::showCompletions(bool force)
{
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    const QString before = text(line).left(index);
    qsizetype start = before.size();
    while (start > 0 && (before[start - 1].isLetterOrNumber() || before[start - 1] == u'_'))
        --start;
    const QString prefix = before.mid(start);
    if (prefix.isEmpty() || (!force && prefix.size() < 3)) return;
    QSet<QString> seen;
    QStringList matches;
    for (const QString& w : m_words)
        if (w.startsWith(prefix) && w != prefix && !seen.contains(w)) {
            seen.insert(w);
            matches << w;
        }
    static const QRegularExpression identifier(QStringLiteral("\\b[A-Za-z_][A-Za-z0-9_]{2,}\\b"));
    const QString all = text();
    for (auto it = identifier.globalMatch(all); it.hasNext();) {
        const QString w = it.next().captured(0);
        if (w.startsWith(prefix) && w != prefix && !seen.contains(w)) {
            seen.insert(w);
            matches << w;
        }
    }
    if (matches.isEmpty()) return;
    matches.sort(); // Scintilla searches the list in sorted order
    const QByteArray list = matches.join(u' ').toUtf8();
    SendScintilla(SCI_AUTOCSHOW, static_cast<unsigned long>(prefix.toUtf8().size()),
                  list.constData());
}

} // namespace wb::ui
