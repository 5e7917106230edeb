// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/project/NewFromExpression.h"

#include "core/common/Error.h"
#include "ui/common/SessionDocument.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace wb::ui {

namespace {
constexpr session::ElementType kTypes[] = {session::ElementType::F32, session::ElementType::F64,
                                           session::ElementType::I32, session::ElementType::U32,
                                           session::ElementType::I64, session::ElementType::U64};
}

NewFromExpressionDialog::NewFromExpressionDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("New from Expression"));
    setObjectName(QStringLiteral("newFromExpressionDialog"));
    auto* form = new QFormLayout;
    m_expression = new QLineEdit(QStringLiteral("z = a*x + y"), this);
    m_expression->setObjectName(QStringLiteral("expressionEdit"));
    m_expression->setToolTip(tr("<output> = <C++ expression>; every name that is not a scalar "
                                "or a function call is an array of the element type"));
    m_type = new QComboBox(this);
    m_type->setObjectName(QStringLiteral("typeCombo"));
    for (session::ElementType t : kTypes)
        m_type->addItem(QString::fromLatin1(session::elementTypeName(t)), int(t));
    m_scalars = new QLineEdit(QStringLiteral("a=2"), this);
    m_scalars->setObjectName(QStringLiteral("scalarsEdit"));
    m_scalars->setPlaceholderText(tr("a=2.5, b (names that are scalars, with values)"));
    m_size = new QLineEdit(QStringLiteral("2^20"), this);
    m_size->setObjectName(QStringLiteral("sizeEdit"));
    form->addRow(tr("&Expression:"), m_expression);
    form->addRow(tr("Element &type:"), m_type);
    form->addRow(tr("&Scalars:"), m_scalars);
    form->addRow(tr("Element &count (n):"), m_size);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("expressionError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_preview = new QPlainTextEdit(this);
    m_preview->setObjectName(QStringLiteral("generatedPreview"));
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setMinimumSize(560, 220);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Create Project"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(new QLabel(tr("Generated kernel (editable once created):"), this));
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QLineEdit* e : {m_expression, m_scalars, m_size})
        connect(e, &QLineEdit::textChanged, this, &NewFromExpressionDialog::update);
    connect(m_type, &QComboBox::currentIndexChanged, this, &NewFromExpressionDialog::update);
    update();
}

session::ExpressionSpec NewFromExpressionDialog::spec() const
{
    session::ExpressionSpec s;
    s.expression = m_expression->text().toStdString();
    s.type = session::ElementType(m_type->currentData().toInt());
    s.scalars = m_scalars->text().toStdString();
    s.size = m_size->text().toStdString();
    return s;
}

void NewFromExpressionDialog::setSpec(const session::ExpressionSpec& spec)
{
    m_expression->setText(QString::fromStdString(spec.expression));
    m_type->setCurrentIndex(std::max(0, m_type->findData(int(spec.type))));
    m_scalars->setText(QString::fromStdString(spec.scalars));
    m_size->setText(QString::fromStdString(spec.size));
    update();
}

QString NewFromExpressionDialog::errorText() const
{
    return m_error->text();
}

void NewFromExpressionDialog::update()
{
    try {
        m_project = session::projectFromExpression(spec());
        m_error->clear();
        m_preview->setPlainText(QString::fromStdString(m_project->kernelSource));
    } catch (const Error& e) {
        m_project.reset();
        m_error->setText(QString::fromStdString(e.what()));
        m_preview->clear();
    }
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_project.has_value());
}

void NewFromExpressionDialog::apply(SessionDocument& doc, const session::ExpressionProject& project)
{
    doc.setSession(project.session, QString(), QString::fromStdString(project.kernelSource),
                   QString::fromStdString(project.referenceSource));
    doc.setModified(true);
}

bool NewFromExpressionDialog::createProject(QWidget* parent, SessionDocument& doc)
{
    NewFromExpressionDialog dialog(parent);
    if (dialog.exec() != QDialog::Accepted || !dialog.project()) return false;
    apply(doc, *dialog.project());
    return true;
}

} // namespace wb::ui
