"""The students' copy of the course: what ships, the check that no solution leaks, and the
update of a copy handed out earlier."""
