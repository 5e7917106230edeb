// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"
#include "core/common/CompileResult.h"
#include "core/session/Session.h"
#include "ui/launch/Occupancy.h"

#include <QWidget>

#include <array>
#include <memory>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace wb::ui {

class ParamBindingModel;
class SessionDocument;

/// How the kernel is launched: which kernel (discovered by the last compile, or a template
/// instantiation), what feeds each parameter (checked live), grid/block/shared memory as
/// expressions, a "cover N elements" helper, backend and device, compile options, warm-up and
/// iteration counts — and the theoretical occupancy, which follows the block size and shared
/// memory as they are typed. A pipeline project (Session::launches) shows its launches instead
/// of the kernel and geometry: a readable list, and their JSON (the project file's "launches")
/// to edit and apply.
class LaunchPanel : public QWidget {
    Q_OBJECT
public:
    explicit LaunchPanel(SessionDocument* document, QWidget* parent = nullptr);

    /// The newest kernel compile: its kernels fill the chooser, its resources feed occupancy.
    /// When the launched kernel is gone because it was renamed (the only kernel of the source,
    /// or one kernel replaced by one new one), the chooser and the session follow the new name.
    void setCompileResult(std::shared_ptr<const CompileResult> result);
    /// The kernel the chooser should follow after `current` disappeared from `now` (see
    /// setCompileResult); empty when it stays as it is.
    static QString followRename(const CompileResult* previous, const CompileResult& now,
                                const QString& current);
    /// The device the occupancy is computed for ("sm_90"); empty = the compile target.
    void setDeviceArch(const QString& arch, int multiprocessors);
    /// Lists the backends that can run here ("cuda" disabled with a reason when no GPU).
    void setCudaUnavailableReason(const QString& reason);

    QString occupancyText() const;
    const Occupancy& occupancy() const noexcept { return m_occupancy; }
    ParamBindingModel* bindingModel() const noexcept { return m_bindings; }
    QLineEdit* blockField(int axis) const { return m_block[static_cast<std::size_t>(axis)]; }
    QLineEdit* gridField(int axis) const { return m_grid[static_cast<std::size_t>(axis)]; }
    QLineEdit* sharedField() const noexcept { return m_shared; }
    QComboBox* kernelChooser() const noexcept { return m_kernel; }
    QComboBox* backendChooser() const noexcept { return m_backend; }
    QSpinBox* iterationsBox() const noexcept { return m_iterations; }
    QGroupBox* pipelineBox() const noexcept { return m_pipelineBox; }
    QLabel* pipelineSummary() const noexcept { return m_pipelineSummary; }
    QPlainTextEdit* pipelineEditor() const noexcept { return m_pipelineEdit; }
    QPushButton* pipelineApplyButton() const noexcept { return m_pipelineApply; }
    QPushButton* makePipelineButton() const noexcept { return m_makePipeline; }
    /// Why the last Apply of the pipeline's JSON was refused (naming the field); empty when
    /// it was applied.
    QString pipelineError() const;

    /// The session's launches as the project file writes them ("launches" array, indented).
    static QString launchesJson(const session::Session& s);
    /// Parses `json` (a "launches" array) as the project file would and replaces `s`'s
    /// launches; returns the error naming the field, or an empty string.
    static QString applyLaunchesJson(session::Session& s, const QString& json);
    /// One line per launch: kernel, geometry and loops ("for k = 2 … n ×2").
    static QString pipelineSummaryText(const session::Session& s);

Q_SIGNALS:
    /// Compile options changed: the live compile should run again.
    void compileOptionsChanged();

private:
    void loadFromSession();
    /// After an edit made elsewhere (Sweep → Apply best): the grid, block and shared fields
    /// (`launch`) or the defines take the session's values where they differ and are not
    /// being typed in.
    void syncFromSession(bool launch);
    void writeLaunch();
    void writeOptions();
    void evaluateFields();
    void updateOccupancy();
    /// Shows the pipeline's list and editor, or the one launch's kernel and geometry.
    void showPipeline();
    const KernelInfo* currentKernel() const;

    SessionDocument* m_doc;
    std::shared_ptr<const CompileResult> m_compiled;
    QString m_deviceArch;
    int m_multiprocessors = 0;
    bool m_loading = false;
    Occupancy m_occupancy;

    QComboBox* m_kernel = nullptr;
    QLineEdit* m_instantiate = nullptr;
    ParamBindingModel* m_bindings = nullptr;
    QTableView* m_bindingView = nullptr;
    std::array<QLineEdit*, 3> m_grid{};
    std::array<QLineEdit*, 3> m_block{};
    QLineEdit* m_shared = nullptr;
    QLabel* m_evaluated = nullptr;
    QLineEdit* m_coverN = nullptr;
    QSpinBox* m_coverB = nullptr;
    QComboBox* m_backend = nullptr;
    QSpinBox* m_device = nullptr;
    QComboBox* m_arch = nullptr;
    QComboBox* m_opt = nullptr;
    QCheckBox* m_fastMath = nullptr;
    QCheckBox* m_lineInfo = nullptr;
    QLineEdit* m_defines = nullptr;
    QSpinBox* m_warmup = nullptr;
    QSpinBox* m_iterations = nullptr;
    QLabel* m_occupancyLabel = nullptr;
    QGroupBox* m_kernelBox = nullptr;
    QGroupBox* m_launchBox = nullptr;
    QGroupBox* m_pipelineBox = nullptr;
    QLabel* m_pipelineSummary = nullptr;
    QPlainTextEdit* m_pipelineEdit = nullptr;
    QPushButton* m_pipelineApply = nullptr;
    QLabel* m_pipelineError = nullptr;
    QPushButton* m_makePipeline = nullptr;
};

} // namespace wb::ui
