// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/editor/Qsci.h"

#include <QByteArray>

namespace wb::ui {

/// QScintilla's C++ lexer plus CUDA: qualifiers as keywords, built-ins and intrinsics as
/// secondary keywords, vector types as global classes. Colours follow the widget palette
/// (light or dark) through applyPalette().
class CudaLexer : public QsciLexerCPP {
    Q_OBJECT
public:
    /// `cuda` false gives a plain C++ lexer with the same colours (the reference tab).
    explicit CudaLexer(bool cuda, QObject* parent = nullptr);

    const char* keywords(int set) const override;
    const char* language() const override;

    /// Chooses colours for `palette` (dark when the window colour is dark).
    void applyPalette(const QPalette& palette);

private:
    bool m_cuda;
    QByteArray m_keywords, m_secondary, m_classes;
};

} // namespace wb::ui
