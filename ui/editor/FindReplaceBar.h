// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QsciScintilla;

namespace wb::ui {

/// An inline bar under the editor for find, find/replace and go-to-line; never a modal dialog.
/// Escape closes it and gives the focus back to the editor.
class FindReplaceBar : public QWidget {
    Q_OBJECT
public:
    explicit FindReplaceBar(QWidget* parent = nullptr);

    /// The editor the bar acts on (the current tab's).
    void setEditor(QsciScintilla* editor);

    void showFind();
    void showReplace();
    void showGoToLine();

    bool findNext(bool backwards = false);
    /// Replaces every match; returns how many.
    int replaceAll();

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void setMode(int mode);
    void closeBar();

    QsciScintilla* m_editor = nullptr;
    QWidget* m_findRow = nullptr;
    QWidget* m_replaceRow = nullptr;
    QWidget* m_gotoRow = nullptr;
    QLineEdit* m_find = nullptr;
    QLineEdit* m_replace = nullptr;
    QCheckBox* m_case = nullptr;
    QCheckBox* m_word = nullptr;
    QCheckBox* m_regex = nullptr;
    QSpinBox* m_line = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace wb::ui
