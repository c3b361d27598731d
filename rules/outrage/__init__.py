"""Outrage!"""
