// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/ValidatingDelegate.h"

#include <QComboBox>
#include <QLineEdit>
#include <QToolTip>

namespace wb::ui {

ValidatingDelegate::ValidatingDelegate(Validator validator, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_validator(std::move(validator))
{
}

void ValidatingDelegate::setChoices(int column, const QStringList& choices, bool editable)
{
    m_choices.insert(column, {choices, editable});
}

QWidget* ValidatingDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&,
                                          const QModelIndex& index) const
{
    if (auto it = m_choices.find(index.column()); it != m_choices.end()) {
        auto* combo = new QComboBox(parent);
        combo->addItems(it->first);
        combo->setEditable(it->second);
        return combo;
    }
    auto* edit = new QLineEdit(parent);
    const int row = index.row(), column = index.column();
    connect(edit, &QLineEdit::textEdited, edit, [this, edit, row, column](const QString& text) {
        const QString error = m_validator ? m_validator(row, column, text) : QString();
        edit->setProperty("wbInvalid", !error.isEmpty());
        edit->setStyleSheet(error.isEmpty()
                                ? QString()
                                : QStringLiteral("QLineEdit { border: 1px solid #d0342c; "
                                                 "background: #fde8e7; color: #58151c; }"));
        edit->setToolTip(error);
        if (!error.isEmpty())
            QToolTip::showText(edit->mapToGlobal(QPoint(0, edit->height())), error, edit);
        else
            QToolTip::hideText();
    });
    return edit;
}

void ValidatingDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
    const QString value = index.data(Qt::EditRole).toString();
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        const int i = combo->findText(value);
        if (i >= 0)
            combo->setCurrentIndex(i);
        else if (combo->isEditable())
            combo->setEditText(value);
        return;
    }
    if (auto* edit = qobject_cast<QLineEdit*>(editor)) edit->setText(value);
}

void ValidatingDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                      const QModelIndex& index) const
{
    QString text;
    if (auto* combo = qobject_cast<QComboBox*>(editor))
        text = combo->currentText();
    else if (auto* edit = qobject_cast<QLineEdit*>(editor))
        text = edit->text();
    if (m_validator && !m_validator(index.row(), index.column(), text).isEmpty()) return;
    model->setData(index, text, Qt::EditRole);
}

} // namespace wb::ui
