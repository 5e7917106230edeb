// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileResult.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QProcess;
class QTabWidget;
class QTemporaryDir;

namespace wb::ui {

class ResourceTableModel;

/// What the compiler made of the kernel: the PTX, the SASS (disassembled with nvdisasm or
/// cuobjdump from the toolkit, in a separate process; a note says so when neither is found)
/// and the resources of every kernel.
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

Q_SIGNALS:
    void sassReady();

private:
    void disassemble();

    std::shared_ptr<const CompileResult> m_result;
    QTabWidget* m_tabs = nullptr;
    QPlainTextEdit* m_ptx = nullptr;
    QPlainTextEdit* m_sass = nullptr;
    QLabel* m_sassNote = nullptr;
    ResourceTableModel* m_resources = nullptr;
    QProcess* m_process = nullptr;
    std::unique_ptr<QTemporaryDir> m_tmp;
    bool m_sassStale = true;
};

} // namespace wb::ui
