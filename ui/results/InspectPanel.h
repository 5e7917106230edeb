// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileResult.h"
#include "core/profiling/Hotspots.h"
#include "core/profiling/PtxLineMap.h"
#include "core/profiling/SassListing.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QProcess;
class QTabWidget;
class QTemporaryDir;

namespace wb::ui {

class ResourceTableModel;

/// What the compiler made of the kernel: the PTX, the SASS (disassembled with nvdisasm or
/// cuobjdump from the toolkit, in a separate process; a note says so when neither is found)
/// and the resources of every kernel. With nvdisasm the SASS is shown per instruction with its
/// control bits (stall cycles, yield, scoreboard barriers), its source line and, after a
/// profile with hotspots, its share of the PC samples and top stall reason. A source line can
/// be highlighted in both views (highlightSourceLine); clicking an instruction of either view
/// emits sourceLineActivated with its source line.
class InspectPanel : public QWidget {
    Q_OBJECT
public:
    explicit InspectPanel(QWidget* parent = nullptr);
    ~InspectPanel() override;

    void setCompileResult(std::shared_ptr<const CompileResult> result);
    QString ptxText() const;
    QString sassText() const;
    /// The line above the SASS: which tool disassembled it, or why there is none.
    QString sassNote() const;
    void showSass();
    /// nvdisasm or cuobjdump found on PATH or in the CUDA toolkit; empty when none.
    static QString findDisassembler();

    /// Shows a disassembler's output: nvdisasm's listing (parsed, one row per instruction with
    /// control bits, source line and samples) or, when it does not parse, the text as it is.
    void setSassListing(const QString& text);
    /// PC-sampling hotspots shown beside each SASS instruction; nullptr clears them.
    void setHotspots(const profiling::HotspotReport* hotspots);
    /// Highlights the PTX and SASS instructions of 1-based source `line` of `file` (compared
    /// by file name; "" matches any) and scrolls the first into view; 0 clears.
    void highlightSourceLine(int line, const QString& file = {});
    /// How many SASS rows / PTX lines the last highlightSourceLine marked.
    int highlightedSassRows() const noexcept { return m_highlightedSass; }
    int highlightedPtxLines() const noexcept { return m_highlightedPtx; }
    /// Source line of SASS text row `row` / PTX text line `line` (0-based blocks); 0 if none.
    int sourceLineOfSassRow(int row) const;
    int sourceLineOfPtxRow(int row) const;
    QPlainTextEdit* ptxView() const noexcept { return m_ptx; }
    QPlainTextEdit* sassView() const noexcept { return m_sass; }
    /// The parsed listing (empty with cuobjdump or before disassembly).
    const profiling::SassListing& listing() const noexcept { return m_listing; }

Q_SIGNALS:
    void sassReady();
    /// The user clicked a PTX or SASS instruction of 1-based source `line`.
    void sourceLineActivated(int line);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void disassemble();
    void renderSass();

    struct SassRow {
        std::string function;
        std::uint64_t offset = 0;
        int line = 0; ///< source line, 0 for headers
        std::string file;
    };

    std::shared_ptr<const CompileResult> m_result;
    QTabWidget* m_tabs = nullptr;
    QPlainTextEdit* m_ptx = nullptr;
    QPlainTextEdit* m_sass = nullptr;
    QLabel* m_sassNote = nullptr;
    ResourceTableModel* m_resources = nullptr;
    QProcess* m_process = nullptr;
    std::unique_ptr<QTemporaryDir> m_tmp;
    bool m_sassStale = true;
    profiling::SassListing m_listing;
    profiling::PtxLineMap m_ptxMap;
    std::optional<profiling::HotspotReport> m_hotspots;
    std::vector<SassRow> m_sassRows; ///< per text row of the SASS view (formatted listing)
    int m_highlightedSass = 0;
    int m_highlightedPtx = 0;
};

} // namespace wb::ui
