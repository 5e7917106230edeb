// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Session.h"
#include "core/session/SessionRunner.h"

#include <QString>

#include <optional>
#include <vector>

namespace wb::ui {

/// The panels' live checks ask the session runner (session::SessionRunner::Evaluation: the
/// session's expressions evaluated as a run evaluates them) and get its errors as text.
class SessionEval {
public:
    explicit SessionEval(const session::Session& session);

    const session::Expression& expression() const noexcept { return m_eval.expression(); }
    /// Error of scalar `name`'s value, empty when it evaluated.
    QString scalarError(const std::string& name) const;
    std::optional<double> scalarValue(const std::string& name) const;

    std::optional<std::uint64_t> count(const std::string& expression, const std::string& field,
                                       QString* error, std::uint64_t minimum = 1) const;
    /// The buffer's extents; errors name "<buffer>.shape[d]".
    std::optional<std::vector<std::size_t>> shape(const session::BufferSpec& buffer,
                                                  QString* error) const;
    /// Bytes of every buffer whose shape evaluates; `unknown` counts the others.
    std::uint64_t totalBufferBytes(int* unknown = nullptr) const;

private:
    const session::Session& m_session;
    session::SessionRunner::Evaluation m_eval;
};

} // namespace wb::ui
