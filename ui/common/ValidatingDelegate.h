// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStyledItemDelegate>

#include <functional>

namespace wb::ui {

/// Edits table cells with validation as you type: the editor turns red and shows why while the
/// text is not acceptable, and an unacceptable value is never committed. Columns listed as
/// choices get a combo box instead.
class ValidatingDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using Validator = std::function<QString(int row, int column, const QString& text)>;

    explicit ValidatingDelegate(Validator validator, QObject* parent = nullptr);
    /// Column `column` is edited by choosing one of `choices` (editable when `editable`).
    void setChoices(int column, const QStringList& choices, bool editable = false);

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override;

private:
    Validator m_validator;
    QHash<int, QPair<QStringList, bool>> m_choices;
};

} // namespace wb::ui
