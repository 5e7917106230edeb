// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// QScintilla's headers use the `slots`/`signals` keywords, which the project turns off
// (QT_NO_KEYWORDS). Every QScintilla include goes through this header.
#ifndef slots
#define WB_UNDEF_SLOTS
#define slots Q_SLOTS
#endif
#ifndef signals
#define WB_UNDEF_SIGNALS
#define signals Q_SIGNALS
#endif

#include <Qsci/qsciapis.h>
#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#ifdef WB_UNDEF_SLOTS
#undef slots
#undef WB_UNDEF_SLOTS
#endif
#ifdef WB_UNDEF_SIGNALS
#undef signals
#undef WB_UNDEF_SIGNALS
#endif
