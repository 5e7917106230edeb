// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editor/FindReplaceBar.h"

#include "ui/editor/Qsci.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace wb::ui {

namespace {
enum Mode { Find, Replace, GoTo };

QToolButton* button(const QString& text, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setAutoRaise(true);
    return b;
}
} // namespace

FindReplaceBar::FindReplaceBar(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);

    m_findRow = new QWidget(this);
    auto* fr = new QHBoxLayout(m_findRow);
    fr->setContentsMargins(0, 0, 0, 0);
    m_find = new QLineEdit(m_findRow);
    m_find->setPlaceholderText(tr("Find"));
    m_find->setClearButtonEnabled(true);
    m_case = new QCheckBox(tr("Match case"), m_findRow);
    m_word = new QCheckBox(tr("Whole words"), m_findRow);
    m_regex = new QCheckBox(tr("Regex"), m_findRow);
    auto* prev = button(tr("Previous"), m_findRow);
    auto* next = button(tr("Next"), m_findRow);
    m_status = new QLabel(m_findRow);
    auto* close = button(QStringLiteral("✕"), m_findRow);
    close->setToolTip(tr("Close (Esc)"));
    fr->addWidget(m_find, 1);
    fr->addWidget(prev);
    fr->addWidget(next);
    fr->addWidget(m_case);
    fr->addWidget(m_word);
    fr->addWidget(m_regex);
    fr->addWidget(m_status);
    fr->addWidget(close);

    m_replaceRow = new QWidget(this);
    auto* rr = new QHBoxLayout(m_replaceRow);
    rr->setContentsMargins(0, 0, 0, 0);
    m_replace = new QLineEdit(m_replaceRow);
    m_replace->setPlaceholderText(tr("Replace with"));
    auto* replaceOne = button(tr("Replace"), m_replaceRow);
    auto* replaceAllButton = button(tr("Replace all"), m_replaceRow);
    rr->addWidget(m_replace, 1);
    rr->addWidget(replaceOne);
    rr->addWidget(replaceAllButton);

    m_gotoRow = new QWidget(this);
    auto* gr = new QHBoxLayout(m_gotoRow);
    gr->setContentsMargins(0, 0, 0, 0);
    m_line = new QSpinBox(m_gotoRow);
    m_line->setRange(1, 1);
    m_line->setPrefix(tr("Line "));
    auto* go = button(tr("Go"), m_gotoRow);
    auto* close2 = button(QStringLiteral("✕"), m_gotoRow);
    gr->addWidget(m_line);
    gr->addWidget(go);
    gr->addStretch(1);
    gr->addWidget(close2);

    layout->addWidget(m_findRow);
    layout->addWidget(m_replaceRow);
    layout->addWidget(m_gotoRow);

    connect(m_find, &QLineEdit::returnPressed, this, [this]() { findNext(); });
    connect(m_find, &QLineEdit::textEdited, this, [this]() {
        if (!m_editor) return;
        int line = 0, index = 0, lineTo = 0, indexTo = 0;
        m_editor->getSelection(&line, &index, &lineTo, &indexTo);
        if (line >= 0) m_editor->setCursorPosition(line, index);
        findNext();
    });
    connect(next, &QToolButton::clicked, this, [this]() { findNext(); });
    connect(prev, &QToolButton::clicked, this, [this]() { findNext(true); });
    connect(close, &QToolButton::clicked, this, &FindReplaceBar::closeBar);
    connect(close2, &QToolButton::clicked, this, &FindReplaceBar::closeBar);
    connect(replaceOne, &QToolButton::clicked, this, [this]() {
        if (m_editor && m_editor->hasSelectedText()) m_editor->replace(m_replace->text());
        findNext();
    });
    connect(replaceAllButton, &QToolButton::clicked, this, [this]() { replaceAll(); });
    connect(m_replace, &QLineEdit::returnPressed, replaceOne, &QToolButton::click);
    auto goTo = [this]() {
        if (!m_editor) return;
        const int l = m_line->value() - 1;
        m_editor->setCursorPosition(l, 0);
        m_editor->ensureLineVisible(l);
        closeBar();
    };
    connect(go, &QToolButton::clicked, this, goTo);
    connect(m_line, &QSpinBox::editingFinished, this, [this, goTo]() {
        if (m_line->hasFocus()) goTo();
    });
    hide();
}

void FindReplaceBar::setEditor(QsciScintilla* editor)
{
    m_editor = editor;
}

void FindReplaceBar::setMode(int mode)
{
    m_findRow->setVisible(mode != GoTo);
    m_replaceRow->setVisible(mode == Replace);
    m_gotoRow->setVisible(mode == GoTo);
    m_status->clear();
    show();
}

void FindReplaceBar::showFind()
{
    setMode(Find);
    if (m_editor && m_editor->hasSelectedText() && !m_editor->selectedText().contains(u'\n'))
        m_find->setText(m_editor->selectedText());
    m_find->setFocus();
    m_find->selectAll();
}

void FindReplaceBar::showReplace()
{
    showFind();
    setMode(Replace);
    m_find->setFocus();
}

void FindReplaceBar::showGoToLine()
{
    setMode(GoTo);
    if (m_editor) {
        int line = 0, index = 0;
        m_editor->getCursorPosition(&line, &index);
        m_line->setRange(1, std::max(1, m_editor->lines()));
        m_line->setSuffix(tr(" of %1").arg(m_editor->lines()));
        m_line->setValue(line + 1);
    }
    m_line->setFocus();
    m_line->selectAll();
}

bool FindReplaceBar::findNext(bool backwards)
{
    if (!m_editor || m_find->text().isEmpty()) return false;
    int line = 0, index = 0;
    m_editor->getCursorPosition(&line, &index);
    if (backwards && m_editor->hasSelectedText()) {
        int l1 = 0, i1 = 0, l2 = 0, i2 = 0;
        m_editor->getSelection(&l1, &i1, &l2, &i2);
        line = l1;
        index = i1;
    }
    const bool found =
        m_editor->findFirst(m_find->text(), m_regex->isChecked(), m_case->isChecked(),
                            m_word->isChecked(), true, !backwards, line, index, true, false, false);
    m_status->setText(found ? QString() : tr("Not found"));
    return found;
}

int FindReplaceBar::replaceAll()
{
    if (!m_editor || m_find->text().isEmpty()) return 0;
    int count = 0;
    m_editor->beginUndoAction();
    bool found = m_editor->findFirst(m_find->text(), m_regex->isChecked(), m_case->isChecked(),
                                     m_word->isChecked(), false, true, 0, 0, false, false, false);
    while (found && count < 1000000) {
        m_editor->replace(m_replace->text());
        ++count;
        found = m_editor->findNext();
    }
    m_editor->endUndoAction();
    m_status->setText(tr("%n replaced", nullptr, count));
    return count;
}

void FindReplaceBar::closeBar()
{
    hide();
    if (m_editor) m_editor->setFocus();
}

void FindReplaceBar::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        closeBar();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace wb::ui
