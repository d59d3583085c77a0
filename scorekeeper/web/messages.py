"""The message catalog: key → (Korean, English)."""
from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # -- frame --
    "app_name": ("고스톱 점수판", "Go-Stop scorekeeper"),
    "language": ("언어", "Language"),
    "switch_lang": ("English", "한국어"),
    "home": ("처음", "Home"),
    "back": ("돌아가기", "Back"),
    "save": ("저장", "Save"),
    "cancel": ("취소", "Cancel"),
    "delete": ("삭제", "Delete"),
    "edit": ("고치기", "Edit"),
    "yes": ("예", "Yes"),
    "no": ("아니오", "No"),
    # -- errors --
    "error": ("오류", "Error"),
    "err_not_found": ("찾을 수 없습니다.", "Not found."),
    "err_forbidden": ("이 링크로는 바꿀 수 없습니다 (보기 전용).", "This link cannot change anything (read-only)."),
    "err_no_access": ("이 판을 열려면 공유 링크나 코드가 필요합니다.", "You need a share link or code to open this table."),
    "err_csrf": ("양식이 만료되었습니다. 다시 시도하세요.", "The form expired. Please try again."),
    "err_conflict": ("다른 폰이 먼저 바꿨습니다. 새로 고쳤습니다.", "Another phone changed this first; the view is refreshed."),
    "err_bad_request": ("잘못된 요청입니다.", "Bad request."),
    "err_too_large": ("요청이 너무 큽니다.", "The request is too large."),
    "err_method": ("허용되지 않는 요청입니다.", "That method is not allowed here."),
    "err_server": ("서버 오류입니다. 다시 시도하세요.", "Server error. Please try again."),
    "err_rate": ("너무 자주 시도했습니다. 잠시 후에.", "Too many tries; wait a moment."),
}
