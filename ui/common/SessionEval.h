// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Expression.h"
#include "core/session/Session.h"

#include <QString>

#include <map>
#include <optional>
#include <vector>

namespace wb::ui {

/// The session's expressions evaluated the way a run evaluates them (scalars in order, then
/// shapes, grid, block and shared bytes), with errors as text for the panels' live checks.
class SessionEval {
public:
    explicit SessionEval(const session::Session& session);

    const session::Expression& expression() const noexcept { return m_expr; }
    /// Error of scalar `name`'s value, empty when it evaluated.
    QString scalarError(const std::string& name) const;
    std::optional<double> scalarValue(const std::string& name) const;

    std::optional<std::uint64_t> count(const std::string& expression, const std::string& field,
                                       QString* error, std::uint64_t minimum = 1) const;
    std::optional<std::vector<std::size_t>> shape(const session::BufferSpec& buffer,
                                                  QString* error) const;
    /// Bytes of every buffer whose shape evaluates; `unknown` counts the others.
    std::uint64_t totalBufferBytes(int* unknown = nullptr) const;

private:
    const session::Session& m_session;
    session::Expression m_expr;
    std::map<std::string, QString> m_scalarErrors;
};

} // namespace wb::ui
