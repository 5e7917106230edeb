// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/ExpressionProject.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace wb::ui {

class SessionDocument;

/// File → New from Expression: asks for `z = a*x + y`, the element type, which names are
/// scalars (with values) and the element count; shows the generated kernel (or the error,
/// naming the field) as the user types; OK makes the project
/// (wb::session::projectFromExpression): the generated source in the kernel editor, the same
/// statement as the C++ reference. Object names for tests: "expressionEdit", "typeCombo",
/// "scalarsEdit", "sizeEdit", "expressionError", "generatedPreview".
class NewFromExpressionDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewFromExpressionDialog(QWidget* parent = nullptr);

    session::ExpressionSpec spec() const;
    void setSpec(const session::ExpressionSpec& spec);
    /// The project for the current fields; nullopt (and errorText() says why) when invalid.
    const std::optional<session::ExpressionProject>& project() const noexcept { return m_project; }
    QString errorText() const;

    /// Replaces `doc`'s session with `project` as a new, unsaved project.
    static void apply(SessionDocument& doc, const session::ExpressionProject& project);
    /// Runs the dialog; on OK applies its project to `doc`. True when a project was made.
    static bool createProject(QWidget* parent, SessionDocument& doc);

private:
    void update();

    QLineEdit* m_expression = nullptr;
    QComboBox* m_type = nullptr;
    QLineEdit* m_scalars = nullptr;
    QLineEdit* m_size = nullptr;
    QLabel* m_error = nullptr;
    QPlainTextEdit* m_preview = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    std::optional<session::ExpressionProject> m_project;
};

} // namespace wb::ui
